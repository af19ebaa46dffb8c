import { randomInt } from 'node:crypto';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { FRESH_FACTOR_REFUSED_MESSAGE, FRESH_FACTOR_REQUIRED_MESSAGE } from '../../shared/contracts/auth';
import { RECOVERY_CODES_COUNT, WEBAUTHN_CHALLENGE_TTL_MS } from '../../shared/contracts/factors';
import { sha256 } from '../auth/crypto';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { badRequest } from '../lib/errors';
import * as repository from './repository';
import { matchTotpStep } from './totp';
import { authenticationOptions, challengeOf, verifyPasskeyAssertion } from './webauthn';

// The checks of a factor the user presents, shared by the sign-in's second step and by any
// change that needs a fresh factor (verifyFreshFactor): a code from the authenticator app
// (accepted once), a recovery code (spent), a passkey assertion over an expected challenge.

export type CodeCheck = 'ok' | 'wrong' | 'replayed';

/** An authenticator app's code for a user with a confirmed app: right, wrong, or one already used. */
export async function checkTotpCode(db: DB, userId: string, code: string, now: Date): Promise<CodeCheck> {
  const totp = await repository.findTotp(db, userId);
  if (!totp?.confirmed_at) return 'wrong';
  const step = matchTotpStep(totp.secret, code, now);
  if (step === null) return 'wrong';
  return (await repository.claimTotpStep(db, userId, step)) ? 'ok' : 'replayed';
}

// Recovery codes: 16 characters of 32 (80 bits), printed in groups of four. Only a hash is kept;
// with 80 bits, SHA-256 (salted with the user) is out of reach of guessing, offline too.
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES_COUNT }, () => {
    const characters = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return characters.match(/.{4}/g)!.join('-');
  });
}

/** A recovery code as typed (the contract already lowered it and dropped spaces and dashes). */
export const recoveryCodeHash = (userId: string, code: string): string => sha256(`${userId}:${code.toLowerCase().replace(/[\s-]+/g, '')}`);

/** Spends one of the user's unused recovery codes; false when the code is not one of them (or was used). */
export async function spendRecoveryCode(db: DB, userId: string, code: string): Promise<boolean> {
  return repository.spendRecoveryCode(db, userId, recoveryCodeHash(userId, code));
}

// ---------------------------------------------------------------- a fresh factor (step-up)

/** What a user presents to prove a factor again before a sensitive change. */
export type FactorProof =
  | { method: 'totp'; code: string }
  | { method: 'recovery'; code: string }
  /** A passkey's answer to a challenge from stepUpPasskeyOptions (spent by the check). */
  | { method: 'passkey'; response: AuthenticationResponseJSON };

/** Passkey options for a fresh-factor check of a signed-in user (the challenge works once, for them). */
export async function stepUpPasskeyOptions(ctx: Pick<AppContext, 'db' | 'config' | 'clock'>, userId: string) {
  const passkeys = await repository.listPasskeys(ctx.db, userId);
  const options = await authenticationOptions(ctx.config, passkeys, 'preferred');
  await repository.insertChallenge(ctx.db, {
    challenge: options.challenge,
    purpose: 'step_up',
    userId,
    ticketId: null,
    audience: null,
    expiresAt: new Date(ctx.clock.now().getTime() + WEBAUTHN_CHALLENGE_TTL_MS),
  });
  return options;
}

/**
 * Whether the user proves one of their factors now: a code from their authenticator app (not one
 * used before), one of their recovery codes (spent), or a passkey of theirs answering a step-up
 * challenge issued to them. Run it in the transaction of the change it guards, so a refused
 * change leaves the proof unspent only when nothing else was written either.
 */
export async function verifyFreshFactor(ctx: Pick<AppContext, 'db' | 'config' | 'clock'>, userId: string, proof: FactorProof): Promise<boolean> {
  const now = ctx.clock.now();
  if (proof.method === 'totp') return (await checkTotpCode(ctx.db, userId, proof.code, now)) === 'ok';
  if (proof.method === 'recovery') return spendRecoveryCode(ctx.db, userId, proof.code);
  const challenge = challengeOf(proof.response);
  if (!challenge) return false;
  const issued = await repository.spendChallenge(ctx.db, challenge, 'step_up', now);
  if (!issued || issued.user_id !== userId) return false;
  const passkey = await verifyPasskeyAssertion(ctx.db, ctx.config, {
    response: proof.response,
    expectedChallenge: challenge,
    userId,
    requireUserVerification: false,
  });
  return passkey !== null;
}

/** The fresh-factor fields a change's call carries (ZFreshFactorFields). */
export interface FreshFactorInput {
  secondFactorCode?: string | undefined;
  secondFactorPasskey?: AuthenticationResponseJSON | undefined;
}

/** The fresh factor a change came with: a 6-digit code is the app's, a 16-character one a recovery code. */
export function freshFactorProof(input: FreshFactorInput): FactorProof | null {
  if (input.secondFactorPasskey) return { method: 'passkey', response: input.secondFactorPasskey };
  if (!input.secondFactorCode) return null;
  return /^\d{6}$/.test(input.secondFactorCode) ? { method: 'totp', code: input.secondFactorCode } : { method: 'recovery', code: input.secondFactorCode };
}

/**
 * Refuses a change unless it carries a fresh factor of this user (ADR 025: removing a factor,
 * changing the email): 400 naming `secondFactorCode` when none came, 400 when it is not accepted.
 * Call it inside the change's transaction: the proof is spent with the change, and a refused one
 * rolls the change back with it.
 */
export async function assertFreshFactor(ctx: Pick<AppContext, 'db' | 'config' | 'clock'>, userId: string, input: FreshFactorInput): Promise<void> {
  const proof = freshFactorProof(input);
  if (!proof) throw badRequest(FRESH_FACTOR_REQUIRED_MESSAGE, { secondFactorCode: FRESH_FACTOR_REQUIRED_MESSAGE });
  if (!(await verifyFreshFactor(ctx, userId, proof))) throw badRequest(FRESH_FACTOR_REFUSED_MESSAGE, { secondFactorCode: FRESH_FACTOR_REFUSED_MESSAGE });
}
