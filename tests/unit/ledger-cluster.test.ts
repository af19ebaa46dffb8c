import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterLedger, type PaymentSource, type Peer, type PrimaryChannel, serveClusterLedger } from '../../src/server/ledger/cluster';
import { InsufficientFundsError, type EntryInput } from '../../src/server/ledger/posting';
import { LedgerWriter, WRITER_CLOSED_MESSAGE } from '../../src/server/ledger/writer';
import { AppError, BUSY_MESSAGE } from '../../src/server/lib/errors';
import { ledgerAnswers, transferLine } from '../../src/server/transactions/line';
import { bulkAnswers, bulkResult } from '../../src/server/bulk-payments/service';
import { BULK_SUCCESS_MESSAGE } from '../../src/shared/contracts/bulk-payments';
import { createCustomer, createTestApp, customerAccountIds, fund, type TestContext } from '../support/app';

// One writer for a cluster (ledger/cluster.ts): a worker's customer payments are posted by its
// primary's writer and answered as one process answers them. The two processes are stood in for
// by a channel that passes each message through JSON on the next turn, as node's IPC does.
let ctx: TestContext;
let customer: { userId: string; savings: string; checking: string };
beforeAll(async () => {
  ctx = await createTestApp();
  const created = await createCustomer(ctx);
  await fund(ctx, created.userId, 100);
  customer = { userId: created.userId, ...(await customerAccountIds(ctx, created.userId)) };
});
afterAll(async () => ctx?.close());

const move = (cents: number): EntryInput => ({
  kind: 'internal',
  description: 'Transfer from checking to savings',
  authorId: customer.userId,
  postings: [
    { accountId: customer.checking, amountCents: -cents },
    { accountId: customer.savings, amountCents: cents },
  ],
});

/** A primary's writer and a worker's ledger joined as a cluster joins them; `deliver: false` loses what the worker sends. */
function cluster(primaryWriter: LedgerWriter, options: { deliver?: boolean; logged?: unknown[] } = {}) {
  const through = <T>(message: T): T => JSON.parse(JSON.stringify(message)) as T;
  let toPrimary: ((message: unknown, from: Peer) => void) | null = null;
  const toWorker: Array<(message: unknown) => void> = [];
  const disconnected: Array<() => void> = [];
  let connected = true;
  const replied: unknown[] = [];
  const worker: Peer = {
    send: (message) => {
      replied.push(message);
      setImmediate(() => toWorker.forEach((listener) => listener(through(message))));
    },
  };
  const source: PaymentSource = { onPayment: (listener) => (toPrimary = listener) };
  const channel: PrimaryChannel = {
    connected: () => connected,
    send: (message) => {
      if (options.deliver === false) return;
      setImmediate(() => toPrimary?.(through(message), worker));
    },
    onReply: (listener) => toWorker.push(listener),
    onDisconnect: (listener) => disconnected.push(listener),
  };
  serveClusterLedger(primaryWriter, { error: (fields: unknown) => options.logged?.push(fields) }, source);
  const own = new LedgerWriter(ctx.database.db, { answers: ledgerAnswers });
  return {
    worker: new ClusterLedger(own, channel),
    own,
    /** The messages the primary sent back. */
    replied,
    disconnect: () => {
      connected = false;
      disconnected.forEach((listener) => listener());
    },
  };
}

const balance = async (id: string) =>
  Number((await ctx.database.db.selectFrom('ledger_accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow()).balance);

describe('one ledger writer for a cluster', () => {
  it("posts a worker's payments through the primary's writer, answered and stored as one process does", async () => {
    const primary = new LedgerWriter(ctx.database.db, { answers: ledgerAnswers });
    const { worker, own, replied } = cluster(primary);
    const before = await balance(customer.checking);
    const ticket = (index: number) => ({ userId: customer.userId, key: `cluster-${index}`, requestHash: `hash-${index}` });
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        worker.submit({ entry: move(100), answer: transferLine(customer.checking, 'checking'), idempotency: ticket(index) }),
      ),
    );
    // Six payments, group-committed by the primary's writer; the worker's own posted nothing.
    expect(primary.stats.batches).toBeGreaterThanOrEqual(1);
    expect(primary.stats.batches).toBeLessThan(6);
    expect(own.stats.batches).toBe(0);
    // A batch's answers went back as one message.
    expect(replied).toHaveLength(primary.stats.batches);
    expect(await balance(customer.checking)).toBe(before - 600);
    expect(outcomes[5]).toMatchObject({
      message: 'Transfer Successful',
      created: true,
      data: { account: 'checking', transactionType: 'debit', amount: 1, description: 'Transfer from checking to savings', balanceAfter: (before - 600) / 100 },
    });
    // Each answer was stored with its entry: a retry replays exactly it.
    const stored = await ctx.database.db
      .selectFrom('idempotency_keys')
      .select(['key', 'status_code', 'response'])
      .where('key', '=', 'cluster-5')
      .executeTakeFirstOrThrow();
    expect(stored.status_code).toBe(201);
    expect(stored.response).toEqual({ data: outcomes[5]!.data, message: 'Transfer Successful' });
    await primary.close();
  });

  it("posts a worker's bulk payment through the primary's writer, all or nothing, answered and stored as one process does", async () => {
    const primary = new LedgerWriter(ctx.database.db, { answers: ledgerAnswers, atomicAnswers: bulkAnswers });
    const { worker, own, replied } = cluster(primary);
    const before = await balance(customer.checking);
    const bulk = (cents: number[], key: string | null) =>
      worker.postAll({
        entries: cents.map(move),
        answer: bulkResult({
          batchId: `batch-${key}`,
          sourceAccountId: customer.checking,
          count: cents.length,
          totalCents: cents.reduce((sum, each) => sum + each, 0),
        }),
        idempotency: key ? { userId: customer.userId, key, requestHash: `hash-${key}` } : null,
      });
    const outcome = await bulk([100, 200, 300], 'cluster-bulk');
    expect(primary.stats.atomics).toBe(1);
    expect(own.stats.atomics).toBe(0);
    expect(replied).toHaveLength(1);
    expect(await balance(customer.checking)).toBe(before - 600);
    expect(outcome).toMatchObject({
      message: BULK_SUCCESS_MESSAGE,
      created: true,
      data: {
        batchId: 'batch-cluster-bulk',
        count: 3,
        total: 6,
        results: [1, 2, 3].map((row) => ({ row, entryId: expect.any(String), transactionId: expect.any(String) })),
      },
    });
    const stored = await ctx.database.db
      .selectFrom('idempotency_keys')
      .select(['status_code', 'response'])
      .where('key', '=', 'cluster-bulk')
      .executeTakeFirstOrThrow();
    expect(stored.status_code).toBe(201);
    expect(stored.response).toEqual({ data: outcome.data, message: BULK_SUCCESS_MESSAGE });

    // One row the balance does not cover: refused as one process refuses it, and no row is posted.
    await expect(bulk([1, 1_000_000], null)).rejects.toBeInstanceOf(InsufficientFundsError);
    expect(await balance(customer.checking)).toBe(before - 600);
    await primary.close();
  });

  it("answers the primary's refusals as one process would: insufficient funds, a full queue", async () => {
    const primary = new LedgerWriter(ctx.database.db, { answers: ledgerAnswers });
    const { worker } = cluster(primary);
    const refused = worker.submit({ entry: move(1_000_000), answer: transferLine(customer.checking, 'checking'), idempotency: null });
    await expect(refused).rejects.toBeInstanceOf(InsufficientFundsError);
    await expect(refused).rejects.toThrow('Insufficient funds');

    const full = new LedgerWriter(ctx.database.db, { answers: ledgerAnswers, queueMax: 0 });
    const busy = cluster(full).worker.submit({ entry: move(1), answer: transferLine(customer.checking, 'checking'), idempotency: null });
    await expect(busy).rejects.toBeInstanceOf(AppError);
    await expect(busy).rejects.toMatchObject({ code: 'unavailable', message: BUSY_MESSAGE });
    await primary.close();
  });

  it("answers a bug in the primary's writer as a failure, logged with its error where it happened", async () => {
    const primary = new LedgerWriter(ctx.database.db, { answers: ledgerAnswers });
    const logged: unknown[] = [];
    const { worker } = cluster(primary, { logged });
    const before = await balance(customer.checking);
    const broken = worker.submit({ entry: move(1), answer: { name: 'no-such-answer', args: null }, idempotency: null });
    await expect(broken).rejects.not.toBeInstanceOf(AppError);
    await expect(broken).rejects.toThrow(/^the primary's ledger writer failed: .*no-such-answer/);
    expect(logged).toEqual([{ err: expect.objectContaining({ message: expect.stringContaining('no-such-answer'), stack: expect.any(String) }) }]);
    expect(await balance(customer.checking)).toBe(before);
    await primary.close();
  });

  it("keeps what only this process can post (an answer that is a function) on the worker's own writer", async () => {
    const primary = new LedgerWriter(ctx.database.db, { answers: ledgerAnswers });
    const { worker, own } = cluster(primary);
    await expect(worker.submit({ entry: move(1), answer: () => ({ data: 'here', created: true }), idempotency: null })).resolves.toEqual({
      data: 'here',
      created: true,
    });
    expect(own.stats.batches).toBe(1);
    expect(primary.stats.batches).toBe(0);
    await primary.close();
  });

  it('answers 503 for what the primary had when it went away, and posts on its own writer after', async () => {
    const primary = new LedgerWriter(ctx.database.db, { answers: ledgerAnswers });
    const { worker, own, disconnect } = cluster(primary, { deliver: false });
    const lost = worker.submit({ entry: move(1), answer: transferLine(customer.checking, 'checking'), idempotency: null });
    disconnect();
    await expect(lost).rejects.toMatchObject({ code: 'unavailable', message: WRITER_CLOSED_MESSAGE });
    await expect(worker.submit({ entry: move(1), answer: transferLine(customer.checking, 'checking'), idempotency: null })).resolves.toMatchObject({
      message: 'Transfer Successful',
    });
    expect(own.stats.batches).toBe(1);
    await worker.close();
    await primary.close();
  });
});
