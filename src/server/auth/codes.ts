import { sql } from 'kysely';
import { CODE_ATTEMPTS_MAX } from '../../shared/limits';
import type { DB } from '../db/database';
import type { CodePurpose } from '../db/schema';
import { AppError } from '../lib/errors';
import { newNumericCode, safeEqual, sha256 } from './crypto';

const codeHash = (binding: string, code: string) => sha256(`${binding}:${code}`);

/**
 * Issues a one-time code for one purpose and one exact binding (the email to confirm, the
 * transfer's amount and payee...). Earlier open codes for the same purpose stop working.
 */
export async function issueCode(
  db: DB,
  input: { userId: string; purpose: CodePurpose; binding: string; ttlMs: number; payload?: Record<string, unknown> },
): Promise<string> {
  const code = newNumericCode();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('one_time_codes')
      .set({ consumed_at: sql`now()` })
      .where('user_id', '=', input.userId)
      .where('purpose', '=', input.purpose)
      .where('consumed_at', 'is', null)
      .execute();
    await trx
      .insertInto('one_time_codes')
      .values({
        user_id: input.userId,
        purpose: input.purpose,
        binding: input.binding,
        code_hash: codeHash(input.binding, code),
        payload: input.payload ? JSON.stringify(input.payload) : null,
        expires_at: new Date(Date.now() + input.ttlMs),
      })
      .execute();
  });
  return code;
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
  },
): Promise<ConsumedCode> {
  const messages = {
    missing: 'No code is waiting for you. Please ask for a new one.',
    expired: 'This code has expired. Please ask for a new one.',
    wrong: 'The code is not correct.',
    exhausted: 'Too many wrong attempts. Please ask for a new code.',
    ...input.messages,
  };
  const outcome = await db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('one_time_codes')
      .selectAll()
      .where('user_id', '=', input.userId)
      .where('purpose', '=', input.purpose)
      .where('consumed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .limit(1);
    if (input.binding !== undefined) query = query.where('binding', '=', input.binding);
    const row = await query.forUpdate().executeTakeFirst();
    if (!row) return { error: messages.missing };
    if (new Date(row.expires_at).getTime() <= Date.now()) return { error: messages.expired };
    if (row.attempts >= CODE_ATTEMPTS_MAX) return { error: messages.exhausted };
    if (!safeEqual(row.code_hash, codeHash(row.binding, input.code))) {
      const attempts = row.attempts + 1;
      await trx
        .updateTable('one_time_codes')
        .set({ attempts, ...(attempts >= CODE_ATTEMPTS_MAX ? { consumed_at: sql`now()` } : {}) })
        .where('id', '=', row.id)
        .execute();
      const left = CODE_ATTEMPTS_MAX - attempts;
      return { error: left > 0 ? `${messages.wrong} ${left} attempt${left === 1 ? '' : 's'} left.` : messages.exhausted };
    }
    await trx
      .updateTable('one_time_codes')
      .set({ consumed_at: sql`now()` })
      .where('id', '=', row.id)
      .execute();
    return { consumed: { id: row.id, payload: (row.payload as Record<string, unknown> | null) ?? null } };
  });
  if ('error' in outcome) throw new AppError('validation', outcome.error ?? messages.wrong);
  return outcome.consumed;
}
