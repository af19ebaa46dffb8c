import type { TransferCodeSent } from '../../shared/contracts/transactions';
import type { PayeeCheck, RowPayeeCheck } from '../../shared/contracts/payment-approval';
import { TRANSFER_CODE_TTL_MS } from '../../shared/limits';
import { consumeCode, issueCode } from '../auth/codes';
import { type ActorContext, withDb } from '../context';
import { inTransaction } from '../db/transaction';
import { type IdempotencyTicket, storeOutcome } from '../ledger/idempotency';
import { AppError } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, plainMail } from '../mail/templates';
import { assertTransferCodeAllowed, noteWrongTransferCode } from '../payment-limits/service';

// The emailed IMS code: the approval for a customer without a passkey (or one who asks for the
// code instead). Its binding is the payment's (payment-approval/binding.ts), so a code for one payment
// never authorizes another. Moved here from transactions/service.ts so that every kind of payment
// approves through one module (ADR 024).

export const CODE_MESSAGES = {
  missing: 'No IMS code is waiting for this transfer. Please request a new code.',
  expired: 'This IMS code has expired. Please request a new code.',
  wrong: 'The IMS code is not correct.',
  exhausted: 'Too many wrong IMS codes. Please request a new code.',
};
export type CodeMessages = typeof CODE_MESSAGES;

export function maskEmail(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}${'*'.repeat(Math.max(1, Math.min(name.length - 1, 6)))}@${domain}`;
}

export interface CodeStep {
  binding: string;
  amountCents: number;
  payee: string;
  /** The memo the customer typed, if any: the code is bound to it too. */
  description: string | null;
  summary: string;
  /** What the mail and the answer call the thing approved: "transfer" unless said otherwise. */
  noun?: string;
  /** A transfer by account number: the recipient name checked against the holder (ADR 029). */
  payeeCheck?: PayeeCheck;
  /** A bulk payment: its rows whose name is not the holder's (ADR 029). */
  payeeChecks?: RowPayeeCheck[];
}

/** The first call: a code for exactly this payment, emailed; the answer is stored under the key. */
export async function sendTransferCode(ctx: ActorContext, step: CodeStep, ticket: IdempotencyTicket): Promise<Outcome<TransferCodeSent>> {
  const user = ctx.actor.user;
  const noun = step.noun ?? 'transfer';
  // The code, its mail and the stored answer commit together: a retry replays the answer, and the
  // mail is delivered by the outbox's job (the request never waits for SMTP).
  return inTransaction(ctx.db, async (trx) => {
    const codesLeft = await assertTransferCodeAllowed(trx, ctx, user.id);
    const { code, expiresAt } = await issueCode(trx, {
      userId: user.id,
      purpose: 'transfer',
      binding: step.binding,
      ttlMs: TRANSFER_CODE_TTL_MS,
      payload: { amountCents: step.amountCents, payee: step.payee, description: step.description },
      now: ctx.clock.now(),
    });
    await queueMail(
      withDb(ctx, trx),
      plainMail(
        brandOf(ctx.config),
        user.email,
        `your IMS code ${code}`,
        `Hello ${user.first_name},\n\nYour IMS code is ${code}.\n\nIt authorizes only this ${noun}: ${step.summary}.\n` +
          `It is valid for 5 minutes and for 5 attempts, and it is free. If you did not ask for it, do not share it and contact support.`,
      ),
      { expiresAt },
    );
    const outcome: Outcome<TransferCodeSent> = {
      data: {
        step: 'code',
        expiresAt: expiresAt.toISOString(),
        sentTo: maskEmail(user.email),
        amount: step.amountCents / 100,
        payee: step.payee,
        ...(step.payeeCheck ? { payeeCheck: step.payeeCheck } : {}),
        ...(step.payeeChecks ? { payeeChecks: step.payeeChecks } : {}),
        ...(codesLeft === undefined ? {} : { codesLeft }),
      },
      message: `We emailed your IMS code to ${maskEmail(user.email)}. It is free and works only for this ${noun}.`,
    };
    await storeOutcome(trx, ticket, outcome);
    return outcome;
  });
}

/**
 * Checks a transfer code; a wrong one also counts towards the day's cap, and the one that reaches
 * it holds outgoing payments (answered instead of "wrong code").
 */
export async function consumeTransferCode(ctx: ActorContext, binding: string, code: string, messages: Partial<CodeMessages> = CODE_MESSAGES): Promise<void> {
  try {
    await consumeCode(ctx.db, {
      userId: ctx.actor.user.id,
      purpose: 'transfer',
      binding,
      code,
      messages: { ...CODE_MESSAGES, ...messages },
      now: ctx.clock.now(),
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'validation') throw (await noteWrongTransferCode(ctx, ctx.actor.user.id)) ?? error;
    throw error;
  }
}
