import type { DB } from '../db/database';
import { databaseUnavailable, describeDatabaseError, isDatabaseUnavailable } from '../db/errors';
import { inTransaction } from '../db/transaction';
import { AppError, assert, busy } from '../lib/errors';
import { ledgerWriterBatchSize, ledgerWriterFallbacks, ledgerWriterQueueDepth } from '../lib/metrics';
import { storedOutcome, type Outcome } from '../lib/outcome';
import type { IdempotencyTicket } from './idempotency';
import { type BookedAccount, type IdempotencyRow, InsufficientFundsError, postEntries, postEntriesLenient, type EntryInput, type PostedEntry } from './posting';

/**
 * An answer the writer builds by name, from the `answers` it was made with (createAppContext's):
 * a job whose answer is named, not a function, can be posted by another process's writer (a
 * cluster's workers hand such payments to the primary's, ledger/cluster.ts). `args` is plain data.
 */
export interface NamedAnswer<T = unknown> {
  name: string;
  args: unknown;
  /** Never set: carries the type of the outcome the named builder makes, so `submit` knows it. */
  readonly outcome?: T;
}
export type AnswerBuilder = (posted: PostedEntry, args: unknown) => Outcome<unknown>;
/** Builds an atomic posting's named answer from its posted entries. */
export type AtomicAnswerBuilder = (posted: PostedEntry[], args: unknown) => Outcome<unknown>;

/** What a request wants posted, and how to answer once it is. */
export interface PostJob<T> {
  entry: EntryInput;
  /** Builds the outcome from the posted entry; pure (it runs while the entry is written). */
  answer: ((posted: PostedEntry) => Outcome<T>) | NamedAnswer<T>;
  /** Stored with the entry, in the same transaction, so a retry replays the outcome. */
  idempotency: IdempotencyTicket | null;
}

/** Posts entries inside an exclusive transaction (the only way to post there). */
export type Post = (entries: EntryInput[]) => Promise<PostedEntry[]>;

/** Entries that post together or not at all (a bulk payment), and how to answer once they have. */
export interface PostAllJob<T> {
  entries: EntryInput[];
  /**
   * Builds the outcome from the posted entries; pure (it runs while they are written). Named (one
   * of the writer's atomicAnswers), a cluster's worker hands the posting to its primary's writer.
   */
  answer: ((posted: PostedEntry[]) => Outcome<T>) | NamedAnswer<T>;
  /** Stored with the entries, in the same statement, so a retry replays the outcome. */
  idempotency: IdempotencyTicket | null;
}

interface Batched {
  kind: 'batched';
  job: PostJob<unknown>;
  resolve: (outcome: Outcome<unknown>) => void;
  reject: (error: unknown) => void;
}

interface Exclusive {
  kind: 'exclusive';
  work: (trx: DB, post: Post) => Promise<unknown>;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

interface Atomic {
  kind: 'atomic';
  job: PostAllJob<unknown>;
  resolve: (outcome: Outcome<unknown>) => void;
  reject: (error: unknown) => void;
}

type Pending = Batched | Exclusive | Atomic;

export const BATCH_ENTRIES_MAX = 256;
/**
 * Batches a writer has in flight at once, each on its own connection (LEDGER_BATCHES_IN_FLIGHT):
 * the next batch is computed and sent while the one before commits. One by default: on the
 * quiet 2-core machine two split the group commits and cost more than they saved (ADR 008).
 */
export const BATCHES_IN_FLIGHT_DEFAULT = 1;
/**
 * Atomic postings (bulk payments) a writer has in flight at once: while one runs, the next one its
 * book can compute is sent too, and waits in PostgreSQL on the locks they share, its statement
 * already parsed and its rows already unpacked, to run the moment the first commits (or at once,
 * when they share no account). Its balances are computed from the book after the first's, and its
 * statement posts only if they are exactly what it finds under the locks.
 */
export const ATOMICS_IN_FLIGHT = 2;
const noAnswers = (): void => undefined;
/** Requests waiting for the writer; past this the bank answers 503 and the client retries later. */
export const WRITER_QUEUE_MAX = 10_000;
export const WRITER_CLOSED_MESSAGE = 'The bank is restarting. Please try again in a moment.';
/** The book holds at most this many accounts; past it, it starts again (a miss only costs a locking read). */
const BOOK_ACCOUNTS_MAX = 100_000;

/** A posting's outcome: its answer function's, or the one the writer builds by that name. */
function answerWith<P>(
  answer: ((posted: P) => Outcome<unknown>) | NamedAnswer,
  posted: P,
  builders: Readonly<Record<string, (posted: P, args: unknown) => Outcome<unknown>>> | undefined,
): Outcome<unknown> {
  if (typeof answer === 'function') return answer(posted);
  const build = builders?.[answer.name];
  assert(build, `the writer builds the answer named ${answer.name}`);
  return build(posted, answer.args);
}

/** The idempotency record written in the same statement as the entries it answers for. */
function idempotencyRow(ticket: IdempotencyTicket, outcome: Outcome<unknown>, entryId: string | null): IdempotencyRow {
  const stored = storedOutcome(outcome);
  return { ...ticket, status: stored.status, response: stored.body, entryId };
}

export interface WriterLog {
  warn(details: object, message: string): void;
}

/** Where entries reach the ledger: a process's LedgerWriter, or a cluster worker's hand-over to its primary's (ledger/cluster.ts). */
export interface Ledger {
  submit<T>(job: PostJob<T>): Promise<Outcome<T>>;
  transaction<T>(work: (trx: DB, post: Post) => Promise<T>): Promise<T>;
  postAll<T>(job: PostAllJob<T>): Promise<Outcome<T>>;
  close(): Promise<void>;
}

/**
 * The one path by which entries reach the ledger. Customer payments queue here and are posted in
 * batches (group commit, TigerBeetle's lesson); work that must post inside a transaction of its
 * own (a loan changing state with its disbursement, a staff entry with its audit record) runs
 * through `transaction()`, in turn with the batches. Every entry still locks its accounts in id
 * order, is checked against balances, chained, and committed with its idempotency record before
 * anyone is answered. A failing batch is retried one entry per transaction, so one bad request
 * never fails another; a batch that meets an unavailable database is refused at once, every
 * request in it answered 503 (see refuseUnavailable).
 *
 * The hash chain is not on this path: entries are queued for the sealer (ledger/sealer.ts) in
 * the statement that posts them, so writers in several processes share no hot row.
 *
 * The writer keeps a book of the balances its batches last wrote or read under lock. A batch
 * whose accounts are all in the book is one autocommit statement (one round trip, its commit
 * included) that posts only if every balance is still exactly what the batch was computed from;
 * a batch with an account not yet in the book reads it under lock in a transaction first. A stale
 * book (another process posted) fails one statement and the retry reads under lock: it costs
 * time, never a wrong balance.
 */
export class LedgerWriter implements Ledger {
  private queue: Pending[] = [];
  /** Batches posting now (at most batchesInFlight), and whether an exclusive transaction runs (then nothing else does). */
  private inFlight = 0;
  /** The accounts of each batch in flight (takeBatch keeps batches in flight apart). */
  private readonly inFlightAccounts = new Set<Set<string>>();
  /** Exclusive transactions and atomic postings running (more than one only for atomic postings computed from the book). */
  private exclusiveRunning = 0;
  /** Of those, the atomic postings computed from the book, which therefore holds their balances already. */
  private atomicsFromBook = 0;
  /** Committed atomic postings whose answers wait for the next work to be sent (close() waits for them too). */
  private answersPending = 0;
  private closed = false;
  /** Who waits in close() for the queue to empty. */
  private readonly idleWaiters: Array<() => void> = [];
  /** Balances as this writer's batches left them, by account id (see the class comment). */
  private readonly book = new Map<string, BookedAccount>();
  /** Batches and atomic postings started, those posted from the book in one statement, and the most posting at once (the tests check them). */
  readonly stats = { batches: 0, atomics: 0, fromBook: 0, maxInFlight: 0 };

  constructor(
    private readonly db: DB,
    private readonly options: {
      log?: WriterLog;
      queueMax?: number;
      now?: () => Date;
      batchesInFlight?: number;
      /** BANK_TIMEZONE: an entry without a value date takes the bank's date of its booking. */
      timeZone?: string;
      /** The answers jobs may name (NamedAnswer). */
      answers?: Readonly<Record<string, AnswerBuilder>>;
      /** The answers atomic postings may name. */
      atomicAnswers?: Readonly<Record<string, AtomicAnswerBuilder>>;
    } = {},
  ) {}

  private get busy(): boolean {
    return this.inFlight > 0 || this.exclusiveRunning > 0 || this.answersPending > 0;
  }

  /** Queues one entry for the next batch; settles once it is committed (or refused). */
  submit<T>(job: PostJob<T>): Promise<Outcome<T>> {
    return new Promise((resolve, reject) => {
      this.enqueue({ kind: 'batched', job: job as PostJob<unknown>, resolve: resolve as (outcome: Outcome<unknown>) => void, reject });
    });
  }

  /**
   * Runs `work` in one transaction, between batches: what it posts through `post` commits with
   * whatever else it writes there, or nothing does. Deadlocks and serialization failures are
   * retried (the work must not have effects outside the transaction). Never call submit() from
   * inside: the writer is busy running this work.
   */
  transaction<T>(work: (trx: DB, post: Post) => Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      this.enqueue({ kind: 'exclusive', work, resolve: resolve as (result: unknown) => void, reject });
    });
  }

  /**
   * Posts entries all together or none, between batches as transaction() does, with their
   * idempotency record in the same statement. When the book knows every account (this writer
   * posted to them, and nobody else did since), that is one autocommit statement, one round trip,
   * which may be sent while the atomic posting before it still runs (ATOMICS_IN_FLIGHT);
   * otherwise, or when the book was stale or refused, a transaction that reads the balances under
   * locks first. Answers the job's outcome, or rejects with InsufficientFundsError.
   */
  postAll<T>(job: PostAllJob<T>): Promise<Outcome<T>> {
    return new Promise((resolve, reject) => {
      this.enqueue({ kind: 'atomic', job: job as PostAllJob<unknown>, resolve: resolve as (outcome: Outcome<unknown>) => void, reject });
    });
  }

  /**
   * Refuses new work (503, the client retries on another process) and settles once everything
   * already queued is committed or refused: a shutdown loses no accepted posting.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (!this.busy && this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private enqueue(item: Pending): void {
    if (this.closed) {
      item.reject(new AppError('unavailable', WRITER_CLOSED_MESSAGE));
      return;
    }
    if (this.queue.length >= (this.options.queueMax ?? WRITER_QUEUE_MAX)) {
      item.reject(busy());
      return;
    }
    this.queue.push(item);
    ledgerWriterQueueDepth.inc();
    this.pump();
  }

  /** The next exclusive transaction or atomic posting (at the head of the queue). */
  private takeExclusive(): Exclusive | Atomic {
    const first = this.queue.shift() as Exclusive | Atomic;
    ledgerWriterQueueDepth.dec();
    return first;
  }

  /**
   * The next batch: up to BATCH_ENTRIES_MAX batched entries from the head of the queue (up to the
   * next exclusive transaction), leaving out every entry that touches an account of a batch in
   * flight, and every later entry on the accounts it touches (so each account's entries keep
   * their order). Batches in flight therefore never share an account: each is computed from
   * balances no other batch of this writer is changing, and none waits on another's locks.
   */
  private takeBatch(): Batched[] {
    const busy = new Set<string>();
    for (const batch of this.inFlightAccounts) for (const id of batch) busy.add(id);
    const taken: Batched[] = [];
    const kept: Pending[] = [];
    let index = 0;
    for (; index < this.queue.length && taken.length < BATCH_ENTRIES_MAX; index += 1) {
      const item = this.queue[index] as Pending;
      if (item.kind !== 'batched') break;
      const accounts = item.job.entry.postings.map((posting) => posting.accountId);
      if (busy.size > 0 && accounts.some((id) => busy.has(id))) {
        for (const id of accounts) busy.add(id);
        kept.push(item);
      } else taken.push(item);
    }
    if (taken.length === 0) return taken;
    this.queue = [...kept, ...this.queue.slice(index)];
    ledgerWriterQueueDepth.dec(taken.length);
    ledgerWriterBatchSize.observe(taken.length);
    return taken;
  }

  /**
   * Starts what may start now: batches while fewer than batchesInFlight are posting, or an
   * exclusive transaction once every batch before it has settled (it runs alone, and nothing
   * queued after it starts before it ends), or an atomic posting behind atomic postings the book
   * computed (up to ATOMICS_IN_FLIGHT). Called whenever work arrives or settles.
   */
  private pump(): void {
    const limit = Math.max(1, this.options.batchesInFlight ?? BATCHES_IN_FLIGHT_DEFAULT);
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (head && head.kind !== 'batched') {
        if (this.inFlight > 0) return;
        // Computed from the book (synchronously, before the posting's first wait), or under locks.
        const fromBook = head.kind === 'atomic' && this.knowsEvery(head.job.entries);
        // While others run, only an atomic posting from the book, behind atomic postings from the book (their balances are in it already).
        if (this.exclusiveRunning > 0 && !(fromBook && this.exclusiveRunning === this.atomicsFromBook && this.exclusiveRunning < ATOMICS_IN_FLIGHT)) return;
        const next = this.takeExclusive();
        this.exclusiveRunning += 1;
        if (fromBook) this.atomicsFromBook += 1;
        if (next.kind === 'atomic') this.stats.atomics += 1;
        // An atomic posting's answer waits until the next work is on its way (as a batch's does).
        void (next.kind === 'atomic' ? this.runAtomic(next, fromBook) : this.runExclusive(next).then(() => noAnswers))
          .catch((error: unknown) => {
            next.reject(error);
            return noAnswers;
          })
          .then((answer) => {
            this.exclusiveRunning -= 1;
            if (fromBook) this.atomicsFromBook -= 1;
            // Answered already (an exclusive transaction, a refusal): nothing to hold back.
            if (answer === noAnswers) return this.pump();
            this.answersPending += 1;
            this.pump();
            // Once the next work's statement has been sent (it is a few promise turns away).
            setImmediate(() => {
              this.answersPending -= 1;
              answer();
              this.pump();
            });
          });
        continue;
      }
      if (this.exclusiveRunning > 0) return;
      if (this.inFlight >= limit) return;
      const batch = this.takeBatch();
      if (batch.length === 0) return; // everything queued waits for an account in flight
      const accounts = new Set(batch.flatMap((item) => item.job.entry.postings.map((posting) => posting.accountId)));
      this.inFlightAccounts.add(accounts);
      this.inFlight += 1;
      this.stats.batches += 1;
      this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.inFlight);
      void this.runBatch(batch)
        .catch((error: unknown) => {
          // runBatch answers every request itself; should anything escape it, nobody is left waiting.
          for (const item of batch) item.reject(error);
          return noAnswers;
        })
        .then((answer) => {
          this.inFlightAccounts.delete(accounts);
          this.inFlight -= 1;
          // The next batch is on its way to the database before this one's requests are answered:
          // answering them (serializing, writing to their sockets) would otherwise hold it back.
          this.pump();
          answer();
        });
    }
    if (!this.busy && this.queue.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Posts a batch; answers what failed at once, and returns how to answer what was committed. */
  private async runBatch(batch: Batched[]): Promise<() => void> {
    try {
      return await this.post(batch, true);
    } catch (error) {
      // What we knew of the balances may be wrong now (another writer posted, or a statement's
      // fate is unknown): forget it.
      this.forget();
      if (isDatabaseUnavailable(error)) {
        this.refuseUnavailable(batch, error);
        return noAnswers;
      }
      this.options.log?.warn({ err: error, entries: batch.length }, 'ledger batch failed; posting its entries one by one');
      ledgerWriterFallbacks.inc();
      // Post each entry alone under locks, so one bad request never fails another.
      for (const [index, item] of batch.entries()) {
        try {
          (await this.post([item], false))();
        } catch (error) {
          this.forget();
          if (isDatabaseUnavailable(error)) {
            this.refuseUnavailable(batch.slice(index), error);
            return noAnswers;
          }
          item.reject(error);
        }
      }
      return noAnswers;
    }
  }

  /**
   * The database went away under a batch: every request in it is answered 503 (Retry-After) at
   * once, rather than each one waiting for its own failed connection. An entry whose commit was
   * under way may have committed; its idempotency record committed with it, so a retry with the
   * same Idempotency-Key replays the answer instead of posting twice. The writer keeps going:
   * the next batch takes a new connection.
   */
  private refuseUnavailable(items: Array<{ reject: (error: unknown) => void }>, error: unknown): void {
    this.options.log?.warn({ reason: describeDatabaseError(error), entries: items.length }, 'ledger batch refused: the database is unavailable');
    for (const item of items) item.reject(databaseUnavailable());
  }

  private async runExclusive(item: Exclusive): Promise<void> {
    let posted: PostedEntry[] = [];
    try {
      const result = await inTransaction(this.db, (trx) => {
        posted = [];
        return item.work(trx, async (entries) => {
          const done = await postEntries(trx, entries, this.booking());
          posted.push(...done);
          return done;
        });
      });
      // Committed: the touched balances are no longer what the book says.
      for (const entry of posted) for (const posting of entry.postings) this.book.delete(posting.accountId);
      item.resolve(result);
    } catch (error) {
      this.forget();
      if (isDatabaseUnavailable(error)) this.refuseUnavailable([item], error);
      else item.reject(error);
    }
  }

  /** Posts an atomic job; refuses it at once if it fails, and returns how to answer it once committed. */
  private async runAtomic(item: Atomic, fromBook: boolean): Promise<() => void> {
    const { entries, answer, idempotency } = item.job;
    const write = async (executor: DB) => {
      let outcome: Outcome<unknown> | null = null;
      await postEntries(executor, entries, {
        book: this.book,
        ...this.booking(),
        extraRows: (posted) => {
          const all = posted.map((entry) => {
            assert(entry, 'every entry of an atomic posting is posted');
            return entry;
          });
          outcome = answerWith(answer, all, this.options.atomicAnswers);
          return idempotency ? [idempotencyRow(idempotency, outcome, all[0]?.id ?? null)] : [];
        },
      });
      assert(outcome, 'the outcome was built');
      return outcome as Outcome<unknown>;
    };
    try {
      let written: Outcome<unknown> | null = null;
      if (fromBook) {
        try {
          written = await write(this.db);
          this.stats.fromBook += 1;
        } catch (error) {
          // A stale book (another writer moved a balance) posts nothing, and its refusal is not
          // final: read the balances under locks instead.
          this.forget();
          if (isDatabaseUnavailable(error)) throw error;
        }
      }
      // Under locks the book is set to the balances this transaction writes: forgotten if it fails.
      const outcome = written ?? (await this.db.transaction().execute(write));
      return () => item.resolve(outcome);
    } catch (error) {
      this.forget();
      if (isDatabaseUnavailable(error)) this.refuseUnavailable([item], error);
      else item.reject(error);
      return noAnswers;
    }
  }

  /** When entries posted now are booked (the writer's clock), and the zone of their value date. */
  private booking(): { now: Date | undefined; timeZone: string | undefined } {
    return { now: this.options.now?.(), timeZone: this.options.timeZone };
  }

  private forget(): void {
    this.book.clear();
  }

  /** Whether the book knows every account of these entries (a book grown past its bound starts again). */
  private knowsEvery(entries: EntryInput[]): boolean {
    if (this.book.size > BOOK_ACCOUNTS_MAX) this.book.clear();
    return entries.every((entry) => entry.postings.every((posting) => this.book.has(posting.accountId)));
  }

  /**
   * Posts a batch in one statement (from the book, when `mayUseBook` and it knows every account)
   * or one transaction under locks. Returns, once committed, what settles every item.
   */
  private async post(batch: Batched[], mayUseBook: boolean): Promise<() => void> {
    const entries = batch.map((item) => item.job.entry);
    const fromBook = mayUseBook && this.knowsEvery(entries);
    const write = async (executor: DB) => {
      let outcomes: Array<{ outcome: Outcome<unknown>; entry: PostedEntry } | null> = [];
      const posted = await postEntriesLenient(executor, entries, {
        book: this.book,
        ...this.booking(),
        extraRows: (posted) => {
          outcomes = batch.map((item, index) => {
            const entry = posted[index];
            return entry ? { outcome: answerWith(item.job.answer, entry, this.options.answers), entry } : null;
          });
          return batch.flatMap((item, index) => {
            const result = outcomes[index];
            const ticket = item.job.idempotency;
            return result && ticket ? [idempotencyRow(ticket, result.outcome, result.entry.id)] : [];
          });
        },
      });
      return { posted, outcomes: batch.map((_, index) => outcomes[index] ?? null) };
    };
    const { posted, outcomes } = fromBook ? await write(this.db) : await this.db.transaction().execute(write);
    if (fromBook) this.stats.fromBook += 1;
    assert(posted.length === batch.length, 'one result per entry');
    assert(outcomes.length === batch.length, 'one outcome per request');
    return () =>
      batch.forEach((item, index) => {
        const result = outcomes[index];
        if (result) item.resolve(result.outcome);
        else {
          const account = item.job.entry.postings.find((posting) => posting.amountCents < 0)?.accountId ?? '';
          item.reject(new InsufficientFundsError(index, account));
        }
      });
  }
}
