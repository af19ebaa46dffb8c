import type { DB } from '../db/database';
import { assert } from '../http/errors';
import type { IdempotentAnswer } from './idempotency';
import { sql } from 'kysely';
import { type BookedAccount, InsufficientFundsError, postEntriesLenient, type ChainHead, type EntryInput, type PostedEntry } from './posting';

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
/** The book holds at most this many accounts; past it, it starts again (a miss only costs a locking read). */
const BOOK_ACCOUNTS_MAX = 100_000;

/**
 * Group commit for customer payments (TigerBeetle's lesson): requests queue here, and one batch
 * at a time posts everything queued so far. Every entry still locks its accounts in id order, is
 * checked against balances, chained, and committed with its idempotency record before anyone is
 * answered. A failing batch is retried one entry per transaction, so one bad request never fails
 * another.
 *
 * The writer keeps the chain head and a book of the balances its batches last wrote or read
 * under lock. A batch whose accounts are all in the book is one autocommit statement (one round
 * trip, its commit included) that posts only if every balance and the head are still exactly what
 * the batch was computed from; a batch with an account not yet in the book reads it under lock in
 * a transaction first. A stale book or head (a staff entry, a loan, another process) fails one
 * statement and the retry reads under lock: it costs time, never a wrong balance.
 */
export class LedgerWriter {
  private queue: Pending[] = [];
  private draining = false;
  /** The head as this writer's last batch left it (null: unknown, read it from the database). */
  private head: ChainHead | null = null;
  /** Balances as this writer's batches left them, by account id (see the class comment). */
  private readonly book = new Map<string, BookedAccount>();
  /** Batches posted from the book in one statement (the tests check that the fast way is taken). */
  readonly stats = { fromBook: 0 };

  constructor(private readonly db: DB) {}

  submit(job: PostJob): Promise<IdempotentAnswer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, BATCH_ENTRIES_MAX);
        try {
          this.head ??= await this.readHead();
          await this.post(batch, this.head);
        } catch (error) {
          if (process.env.LEDGER_WRITER_DEBUG) console.error('batch failed', error);
          // The head or a balance moved under us (another writer posted) or one entry broke the
          // batch: forget what we knew, and post each entry alone the plain way (head locked), so
          // errors stay isolated.
          this.forget();
          for (const item of batch) {
            try {
              await this.post([item], null);
            } catch (error) {
              this.forget();
              item.reject(error);
            }
          }
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async readHead(): Promise<ChainHead> {
    const row = await sql<{ seq: number; hash: string }>`select seq, hash from ledger_chain_head where id = 1`.execute(this.db);
    const head = row.rows[0];
    assert(head, 'the chain head exists');
    return { seq: Number(head.seq), hash: head.hash };
  }

  private forget(): void {
    this.head = null;
    this.book.clear();
  }

  /**
   * Posts a batch, chained onto `head` (null: lock the head row and chain onto it), in one
   * statement or transaction; settles every item only after the commit.
   */
  private async post(batch: Pending[], head: ChainHead | null): Promise<void> {
    const entries = batch.map((item) => item.job.entry);
    if (this.book.size > BOOK_ACCOUNTS_MAX) this.book.clear();
    const fromBook = head !== null && entries.every((entry) => entry.postings.every((posting) => this.book.has(posting.accountId)));
    const write = async (executor: DB) => {
      let answers: Array<{ answer: IdempotentAnswer; entry: PostedEntry } | null> = [];
      const posted = await postEntriesLenient(executor, entries, {
        book: this.book,
        head: head ?? undefined,
        extraRows: (posted) => {
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
      });
      return { posted, outcomes: batch.map((_, index) => answers[index] ?? null) };
    };
    const { posted, outcomes } = fromBook ? await write(this.db) : await this.db.transaction().execute(write);
    if (fromBook) this.stats.fromBook += 1;
    const last = posted.findLast((entry) => entry !== null);
    if (last) this.head = { seq: last.seq, hash: last.hash };
    assert(outcomes.length === batch.length, 'one outcome per request');
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome) item.resolve(outcome.answer);
      else {
        const account = item.job.entry.postings.find((posting) => posting.amountCents < 0)?.accountId ?? '';
        item.reject(new InsufficientFundsError(index, account));
      }
    });
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
