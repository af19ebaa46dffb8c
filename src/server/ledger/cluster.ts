import cluster, { type Worker } from 'node:cluster';
import { AppError, type ErrorCode } from '../lib/errors';
import { messageType } from '../lib/ipc';
import type { Outcome } from '../lib/outcome';
import type { IdempotencyTicket } from './idempotency';
import { type EntryInput, InsufficientFundsError } from './posting';
import { type Ledger, type NamedAnswer, type Post, type PostAllJob, type PostJob, WRITER_CLOSED_MESSAGE } from './writer';
import type { DB } from '../db/database';
import type { Logger } from '../lib/logger';

// One writer for a cluster (ADR 008, "One writer for a cluster"): with WEB_CONCURRENCY=N, each
// worker hands the customer payments it is asked for (jobs whose answer is named) to the primary,
// whose writer group-commits every worker's payments together and stores each answer with its
// entry, as one process does. Split between N writers, each batch held a worker's share of the
// clients, and a statement's fixed cost was paid N times as often. Bulk payments (atomic postings
// with a named answer) go to the primary's writer too (ADR 021): two writers posting batches to
// the same payees found each other's balances behind their books and went under locks, and the
// primary's sealer read back every entry a worker had written. What runs in a transaction of its
// own (staff entries, loans) stays with the worker's own writer: a function cannot cross
// processes. Other instances (other machines) have their own primary and writer; the book's guard
// keeps them correct as before.

interface PostMessage {
  type: 'll:ledger:post';
  id: number;
  entry: EntryInput;
  answer: NamedAnswer;
  idempotency: IdempotencyTicket | null;
}

/** Entries posted all together or none (a bulk payment), answered by name. */
interface PostAllMessage {
  type: 'll:ledger:post-all';
  id: number;
  entries: EntryInput[];
  answer: NamedAnswer;
  idempotency: IdempotencyTicket | null;
}

/** Why the primary's writer refused a payment, as plain data. */
type Refusal =
  | { kind: 'insufficient_funds'; entryIndex: number; accountId: string }
  | { kind: 'refused'; code: ErrorCode; message: string; fields?: Record<string, string>; retryAfterSeconds?: number }
  | { kind: 'failed'; message: string };

/** A payment's answer: its outcome, or why it was refused. */
type Reply = { id: number; outcome: Outcome<unknown> } | { id: number; refusal: Refusal };

/** The answers to one worker's payments that one batch of the primary's writer settled. */
interface RepliesMessage {
  type: 'll:ledger:replies';
  replies: Reply[];
}

const isPost = (message: unknown): message is PostMessage => messageType(message) === 'll:ledger:post';
const isPostAll = (message: unknown): message is PostAllMessage => messageType(message) === 'll:ledger:post-all';
const isReplies = (message: unknown): message is RepliesMessage => messageType(message) === 'll:ledger:replies';

function refusalOf(error: unknown): Refusal {
  if (error instanceof InsufficientFundsError) return { kind: 'insufficient_funds', entryIndex: error.entryIndex, accountId: error.accountId };
  if (error instanceof AppError) {
    return {
      kind: 'refused',
      code: error.code,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
      ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
    };
  }
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}

function errorOf(refusal: Refusal): Error {
  if (refusal.kind === 'insufficient_funds') return new InsufficientFundsError(refusal.entryIndex, refusal.accountId);
  if (refusal.kind === 'refused') {
    return new AppError(
      refusal.code,
      refusal.message,
      refusal.fields,
      refusal.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: refusal.retryAfterSeconds },
    );
  }
  // A bug in the primary: answered 500 here, as it would be in one process (the primary logged it with its stack).
  return new Error(`the primary's ledger writer failed: ${refusal.message}`);
}

/** A worker as its primary sees it: the same object for every payment it sends. */
export interface Peer {
  send(message: RepliesMessage): void;
}

/** The primary's side: whoever sends payments (its workers), each with who sent it. */
export interface PaymentSource {
  onPayment(listener: (message: unknown, from: Peer) => void): void;
}

const peers = new WeakMap<Worker, Peer>();
const peerOf = (worker: Worker): Peer => {
  let peer = peers.get(worker);
  if (!peer) {
    // A worker that died meanwhile has nobody waiting; its clients retry with their Idempotency-Keys.
    peer = { send: (message) => (worker.isConnected() ? void worker.send(message) : undefined) };
    peers.set(worker, peer);
  }
  return peer;
};

export const clusterWorkers: PaymentSource = {
  onPayment: (listener) => cluster.on('message', (worker, message: unknown) => listener(message, peerOf(worker))),
};

/**
 * In a cluster's primary: posts the payments its workers hand over through this process's writer,
 * answering each. The writer settles a batch's payments together; their answers leave as one
 * message a worker, sent once this turn's settlements are in (a microtask: nothing waits). A
 * message on the IPC channel costs both processes a system call and a wake-up (about 20 µs of the
 * primary's time in a profile at 32 clients), so a 15-entry batch answered in two messages instead
 * of fifteen spends that once a worker.
 */
export function serveClusterLedger(writer: Ledger, log: Pick<Logger, 'error'>, source: PaymentSource = clusterWorkers): void {
  const unsent = new Map<Peer, Reply[]>();
  const answer = (peer: Peer, reply: Reply) => {
    const replies = unsent.get(peer);
    if (replies) {
      replies.push(reply);
      return;
    }
    const batch = [reply];
    unsent.set(peer, batch);
    queueMicrotask(() => {
      unsent.delete(peer);
      peer.send({ type: 'll:ledger:replies', replies: batch });
    });
  };
  source.onPayment((message, from) => {
    let posting: Promise<Outcome<unknown>>;
    if (isPost(message)) posting = writer.submit({ entry: message.entry, answer: message.answer, idempotency: message.idempotency });
    else if (isPostAll(message)) posting = writer.postAll({ entries: message.entries, answer: message.answer, idempotency: message.idempotency });
    else return;
    posting.then(
      (outcome) => answer(from, { id: message.id, outcome }),
      (error: unknown) => {
        const refusal = refusalOf(error);
        // The worker answers 500 with a message only: the stack is logged where the bug is.
        if (refusal.kind === 'failed') log.error({ err: error }, "a worker's payment failed in the primary's ledger writer");
        answer(from, { id: message.id, refusal });
      },
    );
  });
}

/** A worker's line to its primary. */
export interface PrimaryChannel {
  connected(): boolean;
  send(message: PostMessage | PostAllMessage): void;
  onReply(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
}

export const clusterPrimary: PrimaryChannel = {
  connected: () => process.connected === true,
  send: (message) => process.send?.(message),
  onReply: (listener) => process.on('message', listener),
  onDisconnect: (listener) => process.on('disconnect', listener),
};

/**
 * A cluster worker's ledger: payments with a named answer go to the primary's writer; everything
 * else (and everything once the primary is gone or this worker is closing) to the worker's own.
 */
export class ClusterLedger implements Ledger {
  private nextId = 1;
  private closing = false;
  private readonly waiting = new Map<number, { resolve: (outcome: Outcome<unknown>) => void; reject: (error: unknown) => void }>();

  constructor(
    private readonly own: Ledger,
    private readonly primary: PrimaryChannel = clusterPrimary,
  ) {
    primary.onReply((message) => {
      if (!isReplies(message)) return;
      for (const reply of message.replies) {
        const waiter = this.waiting.get(reply.id);
        if (!waiter) continue;
        this.waiting.delete(reply.id);
        if ('outcome' in reply) waiter.resolve(reply.outcome);
        else waiter.reject(errorOf(reply.refusal));
      }
    });
    // The primary is gone: whether it committed what it was handed is unknown here, so each is
    // answered 503; the client's retry with the same Idempotency-Key replays it if it committed.
    primary.onDisconnect(() => {
      for (const waiter of this.waiting.values()) waiter.reject(new AppError('unavailable', WRITER_CLOSED_MESSAGE));
      this.waiting.clear();
    });
  }

  submit<T>(job: PostJob<T>): Promise<Outcome<T>> {
    const answer = job.answer;
    if (typeof answer === 'function' || !this.mayHandOver()) return this.own.submit(job);
    return this.handOver((id) => ({ type: 'll:ledger:post', id, entry: job.entry, answer, idempotency: job.idempotency }));
  }

  transaction<T>(work: (trx: DB, post: Post) => Promise<T>): Promise<T> {
    return this.own.transaction(work);
  }

  postAll<T>(job: PostAllJob<T>): Promise<Outcome<T>> {
    const answer = job.answer;
    if (typeof answer === 'function' || !this.mayHandOver()) return this.own.postAll(job);
    return this.handOver((id) => ({ type: 'll:ledger:post-all', id, entries: job.entries, answer, idempotency: job.idempotency }));
  }

  private mayHandOver(): boolean {
    return !this.closing && this.primary.connected();
  }

  /** Sends a posting to the primary's writer; settles with its reply. */
  private handOver<T>(message: (id: number) => PostMessage | PostAllMessage): Promise<Outcome<T>> {
    return new Promise<Outcome<T>>((resolve, reject) => {
      const id = this.nextId;
      this.nextId += 1;
      this.waiting.set(id, { resolve: resolve as (outcome: Outcome<unknown>) => void, reject });
      this.primary.send(message(id));
    });
  }

  /** After the worker's requests have been answered (their payments with them): closes its own writer. */
  async close(): Promise<void> {
    this.closing = true;
    await this.own.close();
  }
}
