import { z } from 'zod';
import { envelope, requiredText, ZTimestamp } from './common';

// Support's recovery of a customer who lost every second factor and recovery code (issue 13,
// docs/decisions/025-fresh-factors-and-recovery.md): staff start it after an identity check, it
// takes effect ACCOUNT_RECOVERY_DELAY_MS later, and the customer can cancel it until then.

/** A recovery takes effect this long after staff start it: the owner's time to say "not me". */
export const ACCOUNT_RECOVERY_DELAY_MS = 24 * 60 * 60 * 1000;
export const IDENTITY_CHECK_LENGTH_MAX = 1000;

export const RECOVERY_STARTED_MESSAGE = 'Recovery started: it takes effect in 24 hours unless the customer cancels it. They have been emailed.';
export const RECOVERY_CANCELLED_MESSAGE = 'The account recovery was cancelled. Nothing was changed.';
export const RECOVERY_PENDING_MESSAGE = 'A recovery is already pending for this customer.';
export const RECOVERY_NOT_PENDING_MESSAGE = 'No account recovery is pending.';
export const RECOVERY_LINK_INVALID_MESSAGE = 'This link is invalid, or the recovery has already been cancelled or has taken effect.';
export const RECOVERY_CUSTOMERS_ONLY_MESSAGE = 'Only a customer account can be recovered by support. Staff recover their factors with another admin.';
export const RECOVERY_CLOSED_MESSAGE = 'This account is closed.';

/** POST /api/user/admin/{id}/recovery: what staff checked to be sure it is the customer (required, audited). */
export const ZRecoveryStart = z.object({
  identityCheck: requiredText('The identity check', IDENTITY_CHECK_LENGTH_MAX, 'Record how you checked the customer’s identity', {
    multiline: true,
  }).describe('How staff made sure it is the customer (audited); the recovery takes effect 24 hours later unless the customer cancels it.'),
});
export type RecoveryStartInput = z.input<typeof ZRecoveryStart>;

export const RECOVERY_STATUSES = ['pending', 'cancelled', 'completed'] as const;

/** A recovery as the back office sees it. */
export const ZRecovery = z
  .object({
    id: z.string(),
    userId: z.string(),
    status: z.enum(RECOVERY_STATUSES).describe('pending (until effectiveAt), cancelled, or completed (the factors were removed).'),
    identityCheck: z.string(),
    startedBy: z.string().nullable().describe('The staff member who started it (user _id).'),
    createdAt: ZTimestamp,
    effectiveAt: ZTimestamp.describe('When it takes effect unless cancelled: 24 hours after it started.'),
    cancelledAt: ZTimestamp.nullable(),
    cancelledVia: z
      .enum(['link', 'session', 'staff'])
      .nullable()
      .describe('Who cancelled it: the customer by the emailed link or signed in, or staff; null if not cancelled.'),
    completedAt: ZTimestamp.nullable(),
  })
  .meta({ id: 'AccountRecovery' });
export type RecoveryDto = z.infer<typeof ZRecovery>;
export const ZRecoveryAnswer = envelope(ZRecovery);
/** The customer's latest recovery (null when there never was one). */
export const ZLatestRecoveryAnswer = envelope(ZRecovery.nullable());

/** What the customer sees of a pending recovery of their own account (null when none). */
export const ZMyRecovery = z.object({ id: z.string(), createdAt: ZTimestamp, effectiveAt: ZTimestamp }).meta({ id: 'MyAccountRecovery' });
export type MyRecoveryDto = z.infer<typeof ZMyRecovery>;
export const ZMyRecoveryAnswer = envelope(ZMyRecovery.nullable());

/** POST /api/account-recovery/cancel: the token of the mailed link. */
export const ZRecoveryCancelByLink = z.object({
  token: z
    .string({ message: RECOVERY_LINK_INVALID_MESSAGE })
    .min(20, RECOVERY_LINK_INVALID_MESSAGE)
    .max(200, RECOVERY_LINK_INVALID_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+$/, RECOVERY_LINK_INVALID_MESSAGE)
    .describe('The token of the emailed cancel link (its ?token=).'),
});
