import type { DB } from './database';
import { isRetryableTransactionError } from './errors';

/** How often a transaction that lost a deadlock or a serialization race is run again. */
export const TRANSACTION_RETRIES_MAX = 3;
const RETRY_BACKOFF_MS = 15;

/**
 * Runs `work` in a transaction, again (up to TRANSACTION_RETRIES_MAX times, with a short growing
 * pause) when PostgreSQL aborted it as a deadlock victim or a serialization failure: both mean
 * "nothing was written, try again". Inside an open transaction it runs there, without retrying:
 * the outermost caller owns the retry.
 */
export async function inTransaction<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db);
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (!isRetryableTransactionError(error) || attempt >= TRANSACTION_RETRIES_MAX) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_BACKOFF_MS * (attempt + 1) + Math.random() * RETRY_BACKOFF_MS));
    }
  }
}
