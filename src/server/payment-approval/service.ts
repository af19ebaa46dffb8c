import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import {
  APPROVAL_BOTH_MESSAGE,
  PASSKEY_APPROVAL_EXPIRED_MESSAGE,
  PASSKEY_APPROVAL_MISMATCH_MESSAGE,
  PASSKEY_APPROVAL_MISSING_MESSAGE,
  PASSKEY_APPROVAL_REFUSED_MESSAGE,
  PASSKEY_APPROVAL_USED_MESSAGE,
  type PasskeyApprovalStep,
  type PayeeCheck,
  type RowPayeeCheck,
  type PaymentApprovalMethod,
} from '../../shared/contracts/payment-approval';
import { WEBAUTHN_CHALLENGE_TTL_MS } from '../../shared/contracts/factors';
import type { TransferCodeSent } from '../../shared/contracts/transactions';
import type { ActorContext } from '../context';
import { inTransaction } from '../db/transaction';
import { listPasskeys } from '../factors/repository';
import { authenticationOptions, challengeOf, verifyPasskeyAssertion } from '../factors/webauthn';
import { type IdempotencyTicket, storeOutcome } from '../ledger/idempotency';
import { AppError, badRequest } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { assertPaymentsNotHeld, assertTransferCodeAllowed, noteWrongTransferCode } from '../payment-limits/service';
import { approvalChallenge, newApprovalNonce, type PaymentSubject, paymentBinding } from './binding';
import { type CodeMessages, consumeTransferCode, sendTransferCode } from './code';
import * as repository from './repository';

// One approval for every payment that leaves a customer's accounts (ADR 024): a transfer, a wire,
// paying a request, a standing order's mandate, a bulk batch. The caller describes the payment
// (a PaymentSubject) and how to show it; this module answers the first call's step and checks
// the second call's approval, both against the same binding:
// - a customer with a passkey gets WebAuthn options whose challenge is derived from the payment
//   and a server nonce (stored, 5 minutes, used once); the assertion is accepted only when the
//   payment posted now encodes to the very challenge the passkey signed;
// - everyone else (or a first call with `approval: "code"`) gets the emailed IMS code, bound to
//   the same binding.
// Both count towards the same caps (ADR 016): a handed-out challenge is one approval request of
// the hour, a refused assertion one failure of the day; and a hold stops both.

export interface ApprovalInput {
  approval?: PaymentApprovalMethod;
  paymentPin?: string;
  passkeyAssertion?: unknown;
}

export interface ApprovalPrompt {
  /** The payee as the customer reads it (on screen and in the mail). */
  payeeLabel: string;
  /** One line for the mail: amount, account, payee, memo. */
  summary: string;
  /** What the mail and messages call it: "transfer" unless said otherwise. */
  noun?: string;
  codeMessages?: Partial<CodeMessages>;
  /** A transfer by account number: the recipient name checked against the holder (ADR 029), shown on the step. */
  payeeCheck?: PayeeCheck;
  /** A bulk payment: its rows whose name is not the holder's (ADR 029), shown on the step. */
  payeeChecks?: RowPayeeCheck[];
}

export type ApprovalStepOutcome = Outcome<TransferCodeSent> | Outcome<PasskeyApprovalStep>;

/**
 * The approval of one payment. The first call (neither `paymentPin` nor `passkeyAssertion`)
 * answers the step to show, stored under the idempotency key; the second checks the approval and
 * answers null: the caller then posts exactly the payment it described.
 */
export async function approvePayment(
  ctx: ActorContext,
  subject: PaymentSubject,
  prompt: ApprovalPrompt,
  input: ApprovalInput,
  ticket: IdempotencyTicket,
): Promise<ApprovalStepOutcome | null> {
  // A hold after too many failed approvals stops every payment away (ADR 016).
  assertPaymentsNotHeld(ctx, ctx.actor.user);
  if (input.paymentPin !== undefined && input.passkeyAssertion !== undefined)
    throw badRequest(APPROVAL_BOTH_MESSAGE, { passkeyAssertion: APPROVAL_BOTH_MESSAGE });
  const binding = paymentBinding(subject);
  if (input.passkeyAssertion !== undefined) {
    await consumePasskeyApproval(ctx, binding, input.passkeyAssertion as AuthenticationResponseJSON);
    return null;
  }
  if (input.paymentPin !== undefined) {
    await consumeTransferCode(ctx, binding, input.paymentPin, prompt.codeMessages);
    return null;
  }
  const passkeys = input.approval === 'code' ? [] : await listPasskeys(ctx.db, ctx.actor.user.id);
  if (passkeys.length > 0) return issuePasskeyApproval(ctx, subject, binding, prompt, passkeys, ticket);
  return sendTransferCode(
    ctx,
    {
      binding,
      amountCents: subject.amountCents,
      payee: prompt.payeeLabel,
      description: subject.description,
      summary: prompt.summary,
      noun: prompt.noun,
      payeeCheck: prompt.payeeCheck,
      payeeChecks: prompt.payeeChecks,
    },
    ticket,
  );
}

/** The first call for a customer with a passkey: options whose challenge is this payment's, nothing mailed. */
async function issuePasskeyApproval(
  ctx: ActorContext,
  subject: PaymentSubject,
  binding: string,
  prompt: ApprovalPrompt,
  passkeys: Array<{ credential_id: string; transports: string[] }>,
  ticket: IdempotencyTicket,
): Promise<Outcome<PasskeyApprovalStep>> {
  const user = ctx.actor.user;
  const now = ctx.clock.now();
  const nonce = newApprovalNonce();
  const challenge = approvalChallenge(binding, nonce);
  // User verification required: the passkey (possession) unlocked by a PIN or biometric (knowledge
  // or inherence) is strong customer authentication on its own.
  const generated = await authenticationOptions(ctx.config, passkeys, 'required');
  const options = { ...generated, challenge };
  const expiresAt = new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MS);
  return inTransaction(ctx.db, async (trx) => {
    const codesLeft = await assertTransferCodeAllowed(trx, ctx, user.id);
    await repository.insertApproval(trx, {
      userId: user.id,
      kind: subject.kind,
      binding,
      nonce,
      challenge,
      amountCents: subject.amountCents,
      payee: prompt.payeeLabel.slice(0, 300),
      expiresAt,
      createdAt: now,
    });
    const outcome: Outcome<PasskeyApprovalStep> = {
      data: {
        step: 'passkey',
        expiresAt: expiresAt.toISOString(),
        amount: subject.amountCents / 100,
        currency: subject.currency ?? 'USD',
        payee: prompt.payeeLabel,
        description: subject.description,
        ...(prompt.payeeCheck ? { payeeCheck: prompt.payeeCheck } : {}),
        ...(prompt.payeeChecks ? { payeeChecks: prompt.payeeChecks } : {}),
        ...(codesLeft === undefined ? {} : { codesLeft }),
        options,
      },
      message: `Approve this ${prompt.noun ?? 'transfer'} with your passkey. It approves only this ${prompt.noun ?? 'transfer'}.`,
    };
    await storeOutcome(trx, ticket, outcome);
    return outcome;
  });
}

/**
 * The second call with a passkey: the challenge the passkey signed must be one this customer was
 * handed, unused and unexpired, and must be the challenge derived from the payment posted now
 * (its binding with the stored nonce); then the signature is checked against it. Any answer spends
 * the challenge; a refused one counts as a failed approval and may start a hold.
 */
async function consumePasskeyApproval(ctx: ActorContext, binding: string, assertion: AuthenticationResponseJSON): Promise<void> {
  const user = ctx.actor.user;
  const now = ctx.clock.now();
  const signed = challengeOf(assertion);
  if (!signed) throw badRequest(PASSKEY_APPROVAL_REFUSED_MESSAGE, { passkeyAssertion: PASSKEY_APPROVAL_REFUSED_MESSAGE });
  // A refusal must still commit its count: the transaction answers the error instead of throwing it.
  const outcome = await inTransaction(ctx.db, async (trx): Promise<{ error: string; counted: boolean } | { ok: true }> => {
    const row = await repository.lockApprovalByChallenge(trx, user.id, signed);
    if (!row) return { error: PASSKEY_APPROVAL_MISSING_MESSAGE, counted: false };
    if (row.used_at) return { error: PASSKEY_APPROVAL_USED_MESSAGE, counted: false };
    if (new Date(row.expires_at).getTime() <= now.getTime()) return { error: PASSKEY_APPROVAL_EXPIRED_MESSAGE, counted: false };
    // Dynamic linking: the challenge recomputed from what is posted now, with the stored nonce.
    if (approvalChallenge(binding, row.nonce) !== row.challenge) {
      await repository.spendApproval(trx, row.id, now, true);
      return { error: PASSKEY_APPROVAL_MISMATCH_MESSAGE, counted: true };
    }
    const passkey = await verifyPasskeyAssertion(trx, ctx.config, {
      response: assertion,
      expectedChallenge: row.challenge,
      userId: user.id,
      requireUserVerification: true,
    });
    await repository.spendApproval(trx, row.id, now, passkey === null);
    return passkey ? { ok: true } : { error: PASSKEY_APPROVAL_REFUSED_MESSAGE, counted: true };
  });
  if ('ok' in outcome) return;
  const refused = new AppError('validation', outcome.error, { passkeyAssertion: outcome.error });
  throw (outcome.counted ? await noteWrongTransferCode(ctx, user.id) : null) ?? refused;
}
