import type { DB } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../lib/errors';
import { storedOutcome, type Outcome, type StoredOutcome } from '../lib/outcome';

/**
 * Who asked, with which Idempotency-Key, for which exact request (a hash of method, URL and body).
 * The HTTP layer makes the ticket; the code that posts stores the outcome with it, in the same
 * transaction as the posting, so a crash between commit and answer can never post twice.
 */
export interface IdempotencyTicket {
  userId: string;
  key: string;
  requestHash: string;
}

export const IDEMPOTENCY_CONFLICT_MESSAGE = 'This Idempotency-Key was already used for a different request.';

/** The outcome stored for this ticket's key, or null; a key used for another request is a 409. */
export async function findStoredOutcome(db: DB, ticket: IdempotencyTicket): Promise<StoredOutcome | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response'])
    .where('user_id', '=', ticket.userId)
    .where('key', '=', ticket.key)
    .executeTakeFirst();
  if (!row) return null;
  if (row.request_hash !== ticket.requestHash) throw new AppError('idempotency_conflict', IDEMPOTENCY_CONFLICT_MESSAGE);
  return { status: row.status_code, body: row.response as StoredOutcome['body'] };
}

/** Stores the outcome in the caller's transaction, next to what the request changed. */
export async function storeOutcome(trx: DB, ticket: IdempotencyTicket, outcome: Outcome, entryId: string | null = null): Promise<void> {
  const stored = storedOutcome(outcome);
  await trx
    .insertInto('idempotency_keys')
    .values({
      user_id: ticket.userId,
      key: ticket.key,
      request_hash: ticket.requestHash,
      status_code: stored.status,
      response: JSON.stringify(stored.body),
      entry_id: entryId,
    })
    .execute();
}

/** The same key arrived twice at once and the other request stored its outcome first. */
export const isKeyClash = (error: unknown) => isUniqueViolation(error, 'idempotency_keys_pkey');

/**
 * Idempotency records stored before `before` (the purge job): a retry with such a key is then a
 * new request. The retention is how late a client may retry (jobs/purge.ts, README).
 */
export async function deleteIdempotencyRecordsBefore(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
