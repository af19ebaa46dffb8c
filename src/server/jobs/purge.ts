import { SESSION_IDLE_MS, SIGN_IN_FAILURE_MEMORY_MS } from '../../shared/limits';
import { deleteApprovalsExpiredBefore } from '../payment-approval/repository';
import * as auth from '../auth/repository';
import type { AppContext } from '../context';
import { deleteSignInStateExpiredBefore } from '../factors/repository';
import { deleteIdempotencyRecordsBefore } from '../ledger/idempotency';
import { deleteSettledMail } from '../mail/repository';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

// How long each kind of row is kept after it stopped working (README "Running in production").

/** Ended, expired or idle sessions: kept a month for questions about a sign-in (IP and browser). */
export const SESSION_RETENTION_MS = 30 * DAY_MS;
/** One-time codes and passkey payment approvals (used or not) after they expired: a day, what the caps count over. */
export const CODE_RETENTION_MS = DAY_MS;
/** Sign-in tickets and WebAuthn challenges (used or not) after they expired. */
export const SIGN_IN_STATE_RETENTION_MS = DAY_MS;
/** Sign-in throttle rows once their failures are forgotten and no wait runs. */
export const SIGN_IN_THROTTLE_RETENTION_MS = SIGN_IN_FAILURE_MEMORY_MS;
/** Password reset links (used or not) after they expired. */
export const PASSWORD_RESET_RETENTION_MS = DAY_MS;
/**
 * Idempotency records after they were stored: how late a client may retry a request and still get
 * the first answer instead of a second posting. At least 24 hours (issue 12); 72 covers a weekend.
 */
export const IDEMPOTENCY_RETENTION_MS = 72 * HOUR_MS;
/** Sent and expired outbox mail (the SMTP server's log keeps the rest). */
export const SENT_MAIL_RETENTION_MS = 7 * DAY_MS;

/** The job that runs every purge (registered in jobs/registry.ts, every hour). */
export const PURGE_TASK = 'purge_expired';

export interface PurgeCounts {
  sessions: number;
  codes: number;
  passwordResets: number;
  signInState: number;
  signInThrottles: number;
  idempotencyRecords: number;
  mail: number;
}

/** Deletes what is past its retention, by the context's clock, and nothing younger. */
export async function purgeExpired(ctx: Pick<AppContext, 'db' | 'clock' | 'log'>): Promise<PurgeCounts> {
  const now = ctx.clock.now().getTime();
  const before = (retentionMs: number) => new Date(now - retentionMs);
  const counts: PurgeCounts = {
    sessions: await auth.deleteSessionsDeadBefore(ctx.db, before(SESSION_RETENTION_MS), SESSION_IDLE_MS),
    codes: (await auth.deleteCodesExpiredBefore(ctx.db, before(CODE_RETENTION_MS))) + (await deleteApprovalsExpiredBefore(ctx.db, before(CODE_RETENTION_MS))),
    passwordResets: await auth.deleteResetsExpiredBefore(ctx.db, before(PASSWORD_RESET_RETENTION_MS)),
    signInState: await deleteSignInStateExpiredBefore(ctx.db, before(SIGN_IN_STATE_RETENTION_MS)),
    signInThrottles: await auth.deleteThrottlesIdleBefore(ctx.db, before(SIGN_IN_THROTTLE_RETENTION_MS)),
    idempotencyRecords: await deleteIdempotencyRecordsBefore(ctx.db, before(IDEMPOTENCY_RETENTION_MS)),
    mail: await deleteSettledMail(ctx.db, before(SENT_MAIL_RETENTION_MS)),
  };
  ctx.log.info(counts, 'purged rows past their retention');
  return counts;
}
