import type { DB } from '../db/database';
import { assert } from '../http/errors';
import type { IdempotentAnswer } from './idempotency';
import { InsufficientFundsError, postEntriesLenient, type EntryInput, type PostedEntry } from './posting';

/** What a request wants posted, and how to answer once it is. */
export interface PostJob {
  entry: EntryInput;
  /** Builds the answer from the posted entry; pure (it runs inside the posting transaction). */
  answer: (posted: PostedEntry) => IdempotentAnswer;
  /** Stored with the entry, in the same transaction, so a retry replays the answer. */
  idempotency: { userId: string; key: string; requestHash: string } | null;
}

interface Pending {
  job: PostJob;
  resolve: (answer: IdempotentAnswer) => void;
  reject: (error: unknown) => void;
}

export const BATCH_ENTRIES_MAX = 256;
/**
 * Two batches in flight: while one holds the chain head and commits, the next one starts its
 * transaction and takes its account locks. More would only queue on the chain head.
 */
export const WRITER_CONCURRENCY = 2;

/**
 * Group commit for customer payments (TigerBeetle's lesson): requests queue here, and one
 * transaction at a time posts everything queued so far. Every entry still locks its accounts in
 * id order, is checked against balances, chained, and committed with its idempotency record
 * before anyone is answered. A failing batch is retried one entry per transaction, so one bad
 * request never fails another.
 */
export class LedgerWriter {
  private queue: Pending[] = [];
  private running = 0;

  constructor(private readonly db: DB) {}

  submit(job: PostJob): Promise<IdempotentAnswer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      if (this.running < WRITER_CONCURRENCY) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running += 1;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, BATCH_ENTRIES_MAX);
        try {
          await this.post(batch);
        } catch {
          for (const item of batch) {
            try {
              await this.post([item]);
            } catch (error) {
              item.reject(error);
            }
          }
        }
      }
    } finally {
      this.running -= 1;
    }
  }

  /** Posts a batch in one transaction; settles every item only after the commit. */
  private async post(batch: Pending[]): Promise<void> {
    const outcomes = await this.db.transaction().execute(async (trx) => {
      let answers: Array<{ answer: IdempotentAnswer; entry: PostedEntry } | null> = [];
      await postEntriesLenient(
        trx,
        batch.map((item) => item.job.entry),
        (posted) => {
          answers = batch.map((item, index) => {
            const entry = posted[index];
            return entry ? { answer: item.job.answer(entry), entry } : null;
          });
          return batch.flatMap((item, index) => {
            const outcome = answers[index];
            const idempotency = item.job.idempotency;
            if (!outcome || !idempotency) return [];
            return [{ ...idempotency, status: outcome.answer.status, response: outcome.answer.body, entryId: outcome.entry.id }];
          });
        },
      );
      return batch.map((_, index) => answers[index] ?? null);
    });
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome) item.resolve(outcome.answer);
      else {
        const account = item.job.entry.postings.find((posting) => posting.amountCents < 0)?.accountId ?? '';
        item.reject(new InsufficientFundsError(index, account));
      }
    });
    assert(outcomes.length === batch.length, 'one outcome per request');
  }
}

const writers = new WeakMap<DB, LedgerWriter>();

/** The writer for this database handle (one per app). */
export function ledgerWriter(db: DB): LedgerWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = new LedgerWriter(db);
    writers.set(db, writer);
  }
  return writer;
}
