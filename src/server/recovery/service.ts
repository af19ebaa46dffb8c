import {
  ACCOUNT_RECOVERY_DELAY_MS,
  type MyRecoveryDto,
  RECOVERY_CANCELLED_MESSAGE,
  RECOVERY_CLOSED_MESSAGE,
  RECOVERY_CUSTOMERS_ONLY_MESSAGE,
  RECOVERY_LINK_INVALID_MESSAGE,
  RECOVERY_NOT_PENDING_MESSAGE,
  RECOVERY_PENDING_MESSAGE,
  RECOVERY_STARTED_MESSAGE,
  type RecoveryDto,
} from '../../shared/contracts/recovery';
import { routes } from '../../shared/routes';
import { audit } from '../audit/audit';
import { newToken, sha256 } from '../auth/crypto';
import { endUserSessions, findUserById } from '../auth/repository';
import { clearAccountFailures } from '../auth/throttle';
import { type ActorContext, type AppContext, withDb } from '../context';
import { lockUser } from '../customers/repository';
import { isUniqueViolation } from '../db/errors';
import { inTransaction } from '../db/transaction';
import { eraseFactors } from '../factors/repository';
import { uuidv7 } from '../ledger/uuid';
import { badRequest, conflict, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, recoveryOutcomeMail, recoveryStartedMail } from '../mail/templates';
import * as repository from './repository';

// Support's recovery of a customer who lost every second factor and recovery code (ADR 025).
// Staff start it after an identity check (what they checked is recorded and audited); the customer
// is emailed at once with a link that cancels it; ACCOUNT_RECOVERY_DELAY_MS later the job
// (RECOVERY_DUE_TASK, with the context's clock) removes the customer's factors and ends every
// session, so the password alone signs in and a new factor can be enrolled. Each step is audited
// (action account_recovery.*), which the customer timeline shows.

/** The scheduled task that completes every recovery whose time has come (jobs/registry.ts). */
export const RECOVERY_DUE_TASK = 'account_recoveries_due';
/** Recoveries completed per run at most; the next run takes the rest. */
const RECOVERIES_PER_RUN_MAX = 100;

const USER_NOT_FOUND = 'User not found';
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toDto(row: repository.RecoveryRow, startedByEmail: string | null): RecoveryDto {
  return {
    id: row.id,
    userId: row.user_id,
    status: row.status,
    identityCheck: row.identity_check,
    startedBy: startedByEmail,
    createdAt: new Date(row.created_at).toISOString(),
    effectiveAt: new Date(row.effective_at).toISOString(),
    cancelledAt: iso(row.cancelled_at),
    cancelledVia: row.cancelled_via,
    completedAt: iso(row.completed_at),
  };
}

/** GET /user/admin/:id/recovery: the customer's newest recovery, or null. */
export async function latestRecovery(ctx: Pick<AppContext, 'db'>, userId: string): Promise<RecoveryDto | null> {
  if (!(await findUserById(ctx.db, userId))) throw notFound(USER_NOT_FOUND);
  const row = await repository.latestOf(ctx.db, userId);
  return row ? toDto(row, row.started_by_email) : null;
}

/**
 * POST /user/admin/:id/recovery: staff start a recovery after checking the customer's identity.
 * The recovery, its audit record and the notice to the customer (with the cancel link) commit together.
 */
export async function startRecovery(ctx: ActorContext, userId: string, input: { identityCheck: string }): Promise<Outcome<RecoveryDto>> {
  const now = ctx.clock.now();
  const token = newToken();
  const staff = ctx.actor.user;
  const row = await inTransaction(ctx.db, async (trx) => {
    const user = await lockUser(trx, userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    if (user.is_admin) throw badRequest(RECOVERY_CUSTOMERS_ONLY_MESSAGE);
    if (user.closed_at) throw conflict(RECOVERY_CLOSED_MESSAGE);
    if (await repository.lockPendingOf(trx, userId)) throw conflict(RECOVERY_PENDING_MESSAGE);
    let inserted: repository.RecoveryRow;
    try {
      inserted = await repository.insertRecovery(trx, {
        id: uuidv7(now.getTime()),
        userId,
        startedBy: staff.id,
        identityCheck: input.identityCheck,
        cancelTokenHash: sha256(token),
        createdAt: now,
        effectiveAt: new Date(now.getTime() + ACCOUNT_RECOVERY_DELAY_MS),
      });
    } catch (error) {
      if (isUniqueViolation(error, 'account_recoveries_one_pending')) throw conflict(RECOVERY_PENDING_MESSAGE);
      throw error;
    }
    await audit(trx, ctx.actor, {
      action: 'account_recovery.start',
      targetUserId: userId,
      targetType: 'account_recovery',
      targetId: inserted.id,
      after: { effectiveAt: new Date(inserted.effective_at).toISOString() },
      reason: input.identityCheck,
    });
    const cancelLink = `${ctx.config.publicUrl}${routes.cancelRecovery.path}?token=${token}`;
    await queueMail(
      withDb(ctx, trx),
      recoveryStartedMail(brandOf(ctx.config), user.email, user.first_name, { effectiveAt: new Date(inserted.effective_at), cancelLink }),
    );
    return inserted;
  });
  return { data: toDto(row, staff.email), message: RECOVERY_STARTED_MESSAGE, created: true };
}

/** Marks a pending recovery cancelled, audits who cancelled it and how, and tells the customer. Inside the transaction that locked it. */
async function cancel(
  ctx: Pick<AppContext, 'db' | 'config' | 'clock' | 'mailer' | 'log'>,
  row: repository.RecoveryRow,
  via: 'link' | 'session' | 'staff',
  actor: ActorContext['actor'] | null,
): Promise<void> {
  await repository.markCancelled(ctx.db, row.id, via, ctx.clock.now());
  await audit(ctx.db, actor, {
    action: 'account_recovery.cancel',
    targetUserId: row.user_id,
    targetType: 'account_recovery',
    targetId: row.id,
    after: { via },
  });
  const user = await findUserById(ctx.db, row.user_id);
  if (user) await queueMail(ctx, recoveryOutcomeMail(brandOf(ctx.config), user.email, user.first_name, 'cancelled'));
}

/** POST /account-recovery/cancel: the mailed link cancels it, signed in or not (the link is the proof). */
export async function cancelByLink(ctx: AppContext, token: string): Promise<Outcome<null>> {
  await inTransaction(ctx.db, async (trx) => {
    const row = await repository.lockPendingByToken(trx, sha256(token));
    if (!row) throw notFound(RECOVERY_LINK_INVALID_MESSAGE);
    await cancel({ ...ctx, db: trx }, row, 'link', null);
  });
  return { data: null, message: RECOVERY_CANCELLED_MESSAGE };
}

/** GET /auth/recovery: the signed-in customer's pending recovery, if any (the security page warns of it). */
export async function myPendingRecovery(ctx: ActorContext): Promise<MyRecoveryDto | null> {
  const row = await repository.latestOf(ctx.db, ctx.actor.user.id);
  if (!row || row.status !== 'pending') return null;
  return { id: row.id, createdAt: new Date(row.created_at).toISOString(), effectiveAt: new Date(row.effective_at).toISOString() };
}

/** POST /auth/recovery/cancel: a signed-in customer cancels a recovery of their own account. */
export async function cancelMine(ctx: ActorContext): Promise<Outcome<null>> {
  await inTransaction(ctx.db, async (trx) => {
    const row = await repository.lockPendingOf(trx, ctx.actor.user.id);
    if (!row) throw notFound(RECOVERY_NOT_PENDING_MESSAGE);
    await cancel(withDb(ctx, trx), row, 'session', ctx.actor);
  });
  return { data: null, message: RECOVERY_CANCELLED_MESSAGE };
}

/** POST /user/admin/:id/recovery/cancel: staff withdraw a recovery they started (audited). */
export async function cancelByStaff(ctx: ActorContext, userId: string): Promise<Outcome<null>> {
  await inTransaction(ctx.db, async (trx) => {
    const row = await repository.lockPendingOf(trx, userId);
    if (!row) throw notFound(RECOVERY_NOT_PENDING_MESSAGE);
    await cancel(withDb(ctx, trx), row, 'staff', ctx.actor);
  });
  return { data: null, message: RECOVERY_CANCELLED_MESSAGE };
}

/**
 * The job: every pending recovery whose effective time has passed by the context's clock takes
 * effect: the customer's passkeys, authenticator app, recovery codes and open sign-in tickets go,
 * every session ends, the account's failed sign-ins are forgotten (the password alone signs in
 * now), it is audited and the customer is emailed, in one transaction per recovery. Rows are
 * locked with SKIP LOCKED, so two runners never complete the same one. Answers how many it completed.
 */
export async function completeDueRecoveries(ctx: Pick<AppContext, 'db' | 'config' | 'clock' | 'mailer' | 'log'>): Promise<number> {
  const now = ctx.clock.now();
  return inTransaction(ctx.db, async (trx) => {
    const due = await repository.lockDue(trx, now, RECOVERIES_PER_RUN_MAX);
    for (const row of due) {
      const user = await findUserById(trx, row.user_id);
      await eraseFactors(trx, row.user_id);
      await endUserSessions(trx, row.user_id);
      if (user) await clearAccountFailures(trx, user.email);
      await repository.markCompleted(trx, row.id, now);
      await audit(trx, null, {
        action: 'account_recovery.complete',
        targetUserId: row.user_id,
        targetType: 'account_recovery',
        targetId: row.id,
        after: { factorsRemoved: true, sessionsEnded: true },
      });
      if (user) await queueMail({ ...ctx, db: trx }, recoveryOutcomeMail(brandOf(ctx.config), user.email, user.first_name, 'completed'));
    }
    if (due.length > 0) ctx.log.info({ completed: due.length }, 'account recoveries took effect');
    return due.length;
  });
}
