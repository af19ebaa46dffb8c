import type { DB } from '../db/database';
import { assert } from '../http/errors';
import type { IdempotentAnswer } from './idempotency';
import { sql } from 'kysely';
import { InsufficientFundsError, postEntriesLenient, type ChainHead, type EntryInput, type Pipeline, type PostedEntry } from './posting';

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
 * Batches in flight at once: while one commits, the next ones begin, lock their accounts, hash
 * onto the head in memory and write; each waits only for the commit of the one before it.
 */
export const WRITER_CONCURRENCY = Number(process.env.LEDGER_WRITER_CONCURRENCY ?? 2);
const PIPELINED = process.env.LEDGER_WRITER_PIPELINE !== '0';

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
  /** The head as this writer's last batch left it (null: unknown, read it from the database). */
  private head: ChainHead | null = null;
  private headLoading: Promise<void> | null = null;
  private writeTail: Promise<void> = Promise.resolve();

  private readonly pipeline: Pipeline = {
    head: () => {
      assert(this.head, 'chain head loaded');
      return this.head;
    },
    claim: (next) => {
      const ready = this.writeTail;
      let done: () => void = () => {};
      this.writeTail = new Promise<void>((resolve) => {
        done = resolve;
      });
      if (next) this.head = next;
      return { ready, done };
    },
  };

  private async loadHead(): Promise<void> {
    this.headLoading ??= (async () => {
      const row = await sql<{ seq: number; hash: string }>`select seq, hash from ledger_chain_head where id = 1`.execute(this.db);
      const head = row.rows[0];
      assert(head, 'the chain head exists');
      this.head ??= { seq: Number(head.seq), hash: head.hash };
    })().finally(() => {
      this.headLoading = null;
    });
    await this.headLoading;
  }

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
          if (!this.head) await this.loadHead();
          await this.post(batch, PIPELINED);
        } catch (error) {
          if (process.env.LEDGER_WRITER_DEBUG) console.error('batch failed', error);
          // The head moved under us (another writer posted) or one entry broke the batch: forget
          // the head, and post each entry alone the plain way (head locked), so errors stay isolated.
          this.head = null;
          for (const item of batch) {
            try {
              await this.post([item], false);
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
  private async post(batch: Pending[], pipelined: boolean): Promise<void> {
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
        pipelined ? this.pipeline : undefined,
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
