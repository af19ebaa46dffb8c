import {
  SIGN_IN_ADDRESS_FAILURE_MEMORY_MS,
  SIGN_IN_ADDRESS_FREE_FAILURES,
  SIGN_IN_DELAY_BASE_MS,
  SIGN_IN_DELAY_MAX_MS,
  SIGN_IN_EMAIL_CODE_AFTER_FAILURES,
  SIGN_IN_FAILURE_MEMORY_MS,
  SIGN_IN_FREE_FAILURES,
} from '../../shared/limits';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import type { SignInScope } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { rateLimited } from '../lib/errors';
import { sha256 } from './crypto';
import * as repository from './repository';

// Sign-in throttling that cannot be turned against the owner (ADR 016). Failed sign-ins never lock
// an account: each failure past a few free ones makes the next attempt for that account (and, with
// RATE_LIMITS on, from that address) wait, doubling up to a minute, answered 429 with Retry-After.
// - An attempt takes its turn atomically (the row is locked and the wait a failure would cause is
//   reserved before the password is checked), so parallel guesses cannot all slip into one gap.
// - A browser the owner signed in from before (its ll_device cookie) skips the account's wait: an
//   attacker elsewhere cannot keep the owner waiting.
// - Past SIGN_IN_EMAIL_CODE_AFTER_FAILURES, the right password is not enough: the sign-in also needs
//   a code emailed to the owner: a sign-in ticket offering "email" (factors/sign-in.ts, ADR 011). The owner always gets in; someone who only guessed
//   or bought the password never does.
// Customer and staff sign-ins count apart: the scope is part of every row's key.

export interface SignInAttempt {
  email: string;
  scope: SignInScope;
  ip: string | null;
  /** The user of the email, when there is one (an unknown email is throttled the same way). */
  userId: string | null;
  /** The browser's ll_device cookie, if it sent one. */
  deviceToken: string | null | undefined;
}

interface Rule {
  subject: string;
  freeFailures: number;
  memoryMs: number;
}

const accountRule = (email: string): Rule => ({
  subject: repository.accountSubject(email),
  freeFailures: SIGN_IN_FREE_FAILURES,
  memoryMs: SIGN_IN_FAILURE_MEMORY_MS,
});
const addressRule = (ip: string): Rule => ({
  subject: repository.addressSubject(ip),
  freeFailures: SIGN_IN_ADDRESS_FREE_FAILURES,
  memoryMs: SIGN_IN_ADDRESS_FAILURE_MEMORY_MS,
});

/** The wait after the `failures`-th failure: none for the free ones, then 1 s, 2 s, 4 s... up to the cap. */
export function delayAfterFailures(failures: number, freeFailures = SIGN_IN_FREE_FAILURES): number {
  if (failures <= freeFailures) return 0;
  return Math.min(SIGN_IN_DELAY_BASE_MS * 2 ** Math.min(failures - freeFailures - 1, 30), SIGN_IN_DELAY_MAX_MS);
}

/** Failures still remembered: they are forgotten `memoryMs` after the last one. */
const liveFailures = (row: repository.ThrottleRow | undefined, now: Date, memoryMs: number): number =>
  row?.last_failure_at && now.getTime() - new Date(row.last_failure_at).getTime() < memoryMs ? row.failures : 0;

const throttled = (waitMs: number) => {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return rateLimited(`Too many failed sign-in attempts. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`, seconds);
};

/** Whether the attempt comes from a browser the account's owner has signed in from (its ll_device cookie). */
export async function isOwnersDevice(ctx: Pick<AppContext, 'db'>, attempt: SignInAttempt): Promise<boolean> {
  return attempt.userId && attempt.deviceToken ? repository.isKnownDevice(ctx.db, attempt.userId, sha256(attempt.deviceToken)) : false;
}

async function rulesFor(ctx: Pick<AppContext, 'db' | 'config'>, attempt: SignInAttempt): Promise<Rule[]> {
  const rules: Rule[] = [];
  if (!(await isOwnersDevice(ctx, attempt))) rules.push(accountRule(attempt.email));
  if (ctx.config.rateLimits && attempt.ip) rules.push(addressRule(attempt.ip));
  return rules;
}

/**
 * Lets a sign-in attempt check the password, or refuses it with 429 and Retry-After while a wait
 * runs. Admitting it reserves the wait its failure would cause, so the next attempt waits its turn.
 */
export async function admitSignIn(ctx: Pick<AppContext, 'db' | 'config' | 'clock'>, attempt: SignInAttempt): Promise<void> {
  const rules = await rulesFor(ctx, attempt);
  if (rules.length === 0) return;
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (trx) => {
    let waitMs = 0;
    const rows = [];
    // Always the account before the address: two attempts never lock them in opposite orders.
    for (const rule of rules) {
      const row = await repository.lockThrottle(trx, attempt.scope, rule.subject);
      const blockedUntil = row.blocked_until ? new Date(row.blocked_until).getTime() : 0;
      waitMs = Math.max(waitMs, blockedUntil - now.getTime());
      rows.push({ rule, row });
    }
    if (waitMs > 0) throw throttled(waitMs);
    for (const { rule, row } of rows) {
      const failures = liveFailures(row, now, rule.memoryMs);
      const reserveMs = delayAfterFailures(failures + 1, rule.freeFailures);
      if (reserveMs > 0) {
        await repository.setThrottle(trx, attempt.scope, rule.subject, { ...row, failures, blocked_until: new Date(now.getTime() + reserveMs) });
      }
    }
  });
}

/** Counts a failed sign-in for the account (always, known device or not) and the address (with RATE_LIMITS). */
export async function recordSignInFailure(ctx: Pick<AppContext, 'db' | 'config' | 'clock'>, attempt: SignInAttempt): Promise<void> {
  const rules = [accountRule(attempt.email), ...(ctx.config.rateLimits && attempt.ip ? [addressRule(attempt.ip)] : [])];
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (trx) => {
    for (const rule of rules) {
      const row = await repository.lockThrottle(trx, attempt.scope, rule.subject);
      const failures = liveFailures(row, now, rule.memoryMs) + 1;
      const delayMs = delayAfterFailures(failures, rule.freeFailures);
      await repository.setThrottle(trx, attempt.scope, rule.subject, {
        failures,
        last_failure_at: now,
        blocked_until: delayMs > 0 ? new Date(now.getTime() + delayMs) : null,
      });
    }
  });
}

/** How many failed sign-ins the account has had recently, in this scope. */
export async function signInFailures(ctx: Pick<AppContext, 'db' | 'clock'>, email: string, scope: SignInScope): Promise<number> {
  const row = await repository.findThrottle(ctx.db, scope, repository.accountSubject(email));
  return liveFailures(row, ctx.clock.now(), SIGN_IN_FAILURE_MEMORY_MS);
}

/**
 * THE decision of the emailed-code step: whether a sign-in with the right password for this
 * account also needs a code emailed to its owner. Its only input is the account's recent failures
 * in this scope, so the owner and an attacker are answered alike, and nothing an attacker does
 * from elsewhere can keep the owner from the code.
 */
export async function signInNeedsEmailCode(ctx: Pick<AppContext, 'db' | 'clock'>, email: string, scope: SignInScope): Promise<boolean> {
  return (await signInFailures(ctx, email, scope)) >= SIGN_IN_EMAIL_CODE_AFTER_FAILURES;
}

/** A completed sign-in forgets the account's failures in its scope. */
export async function clearSignInFailures(db: DB, email: string, scope: SignInScope): Promise<void> {
  await repository.clearThrottle(db, repository.accountSubject(email), scope);
}

/** A password reset proves the mailbox: the account's failures are forgotten in every scope. */
export async function clearAccountFailures(db: DB, email: string): Promise<void> {
  await repository.clearThrottle(db, repository.accountSubject(email));
}
