import { CODE_ATTEMPTS_MAX } from '../../shared/limits';
import type { DB } from '../db/database';
import type { CodePurpose } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { AppError } from '../lib/errors';
import { newNumericCode, safeEqual, sha256 } from './crypto';
import * as repository from './repository';

const codeHash = (binding: string, code: string) => sha256(`${binding}:${code}`);

/**
 * Issues a one-time code for one purpose and one exact binding (the email to confirm, the
 * transfer's amount and payee...). Earlier open codes for the same purpose stop working. Answers
 * the code (to be mailed, never stored) and when it stops working (the mail's expiry too).
 */
export async function issueCode(
  db: DB,
  input: { userId: string; purpose: CodePurpose; binding: string; ttlMs: number; payload?: Record<string, unknown>; now?: Date },
): Promise<{ code: string; expiresAt: Date }> {
  const code = newNumericCode();
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + input.ttlMs);
  await inTransaction(db, async (trx) => {
    await repository.retireOpenCodes(trx, input.userId, input.purpose);
    await repository.insertCode(trx, {
      userId: input.userId,
      purpose: input.purpose,
      binding: input.binding,
      codeHash: codeHash(input.binding, code),
      payload: input.payload ?? null,
      expiresAt,
      createdAt: now,
    });
  });
  return { code, expiresAt };
}

export interface ConsumedCode {
  id: string;
  payload: Record<string, unknown> | null;
}

/**
 * Checks a code against the newest open code of that purpose (and binding, when given). Each
 * wrong try is counted and committed; after CODE_ATTEMPTS_MAX the code is spent. A right code is
 * consumed, so it works once.
 */
export async function consumeCode(
  db: DB,
  input: {
    userId: string;
    purpose: CodePurpose;
    binding?: string;
    code: string;
    messages?: Partial<Record<'missing' | 'expired' | 'wrong' | 'exhausted', string>>;
    now?: Date;
  },
): Promise<ConsumedCode> {
  const messages = {
    missing: 'No code is waiting for you. Please ask for a new one.',
    expired: 'This code has expired. Please ask for a new one.',
    wrong: 'The code is not correct.',
    exhausted: 'Too many wrong attempts. Please ask for a new code.',
    ...input.messages,
  };
  const now = input.now ?? new Date();
  // A wrong try is answered with an error but must still commit its count: the transaction
  // returns the error instead of throwing it.
  const outcome = await inTransaction(db, async (trx): Promise<{ error: string } | { consumed: ConsumedCode }> => {
    const row = await repository.lockNewestOpenCode(trx, { userId: input.userId, purpose: input.purpose, binding: input.binding });
    if (!row) return { error: messages.missing };
    if (new Date(row.expires_at).getTime() <= now.getTime()) return { error: messages.expired };
    if (row.attempts >= CODE_ATTEMPTS_MAX) return { error: messages.exhausted };
    if (!safeEqual(row.code_hash, codeHash(row.binding, input.code))) {
      const attempts = row.attempts + 1;
      await repository.recordWrongCode(trx, row.id, attempts, attempts >= CODE_ATTEMPTS_MAX);
      const left = CODE_ATTEMPTS_MAX - attempts;
      return { error: left > 0 ? `${messages.wrong} ${left} attempt${left === 1 ? '' : 's'} left.` : messages.exhausted };
    }
    await repository.markCodeConsumed(trx, row.id);
    return { consumed: { id: row.id, payload: (row.payload as Record<string, unknown> | null) ?? null } };
  });
  if ('error' in outcome) throw new AppError('validation', outcome.error);
  return outcome.consumed;
}
