import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../../src/server/db/errors';
import { RETRY_AFTER_SECONDS } from '../../src/server/plugins/errors';
import { AppError } from '../../src/server/lib/errors';
import type { EntryInput } from '../../src/server/ledger/posting';
import { verifyLedger } from '../../src/server/ledger/verify';
import { sealAll } from '../../src/server/ledger/sealer';
import { bearer, createTestApp, customerAccountIds, json, signIn, type TestContext } from '../support/app';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

// The database going away under a running app: a terminated connection (idle or in use) is
// logged and replaced, never the end of the process; while PostgreSQL cannot be reached /api
// answers 503 with Retry-After; and everything works again by itself once it is back.
// The app reaches its database through a relay this file can cut (tests/support/tcp-proxy.ts).

let ctx: TestContext;
let proxy: TcpProxy;
let directUrl: string;
let token: string;
let accounts: { savings: string; checking: string };
let logged = '';

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => (logged += chunk.toString()));
  ctx = await createTestApp({
    logStream,
    via: async (url) => {
      directUrl = url;
      proxy = await startTcpProxy(url);
      return proxy.via(url);
    },
  });
  token = await signIn(ctx, 'alex.morgan@example.com', 'Ledgerline-Demo-2026');
  const user = await ctx.database.db.selectFrom('users').select('id').where('email', '=', 'alex.morgan@example.com').executeTakeFirstOrThrow();
  accounts = await customerAccountIds(ctx, user.id);
});
afterAll(async () => {
  await proxy?.up().catch(() => {});
  await ctx?.close();
  await proxy?.close();
});

/** Runs one statement on the test database directly (not through the relay, not through the app's pool). */
async function direct<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: directUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** pg_terminate_backend on every connection the app holds; returns how many there were. */
async function terminateAppConnections(filter = ''): Promise<number> {
  const rows = await direct<{ pid: number }>(
    `select pg_terminate_backend(pid), pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() ${filter}`,
  );
  return rows.length;
}

const transfer = (key: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/transaction/internal-transfer',
    headers: { ...bearer(token), 'idempotency-key': key },
    payload: { from: 'savings', to: 'checking', amount: 1 },
  });
const me = () => ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(token) });
const move: EntryInput = {
  kind: 'internal',
  description: 'Move',
  authorId: null,
  postings: [
    { accountId: '', amountCents: -1 },
    { accountId: '', amountCents: 1 },
  ],
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the database goes away', () => {
  it('replaces idle connections killed by pg_terminate_backend, and logs it', async () => {
    // Fill the pool with idle connections: several requests at once.
    const warm = await Promise.all(Array.from({ length: 8 }, () => me()));
    expect(warm.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    expect(await terminateAppConnections()).toBeGreaterThan(0);
    await sleep(200);
    // The process is still here (an unhandled pool error would have failed this file) and serves.
    const after = await Promise.all([me(), me(), transfer('terminated-1'), transfer('terminated-2')]);
    expect(after.map((response) => response.statusCode)).toEqual([200, 200, 201, 201]);
    expect(logged).toContain('idle database connection lost; the pool will open a new one');
  });

  it('rejects the query of a connection killed while in use, and keeps serving', async () => {
    const sleeping = sql`select pg_sleep(20)`.execute(ctx.database.db).then(
      () => null,
      (reason: unknown) => reason,
    );
    for (let tries = 0; tries < 100; tries += 1) {
      if ((await terminateAppConnections("and query like '%pg_sleep(20)%'")) > 0) break;
      await sleep(20);
    }
    expect(isDatabaseUnavailable(await sleeping)).toBe(true);

    // A connection checked out for a transaction, idle between two statements when it is killed:
    // its 'error' event must reach a listener (else the process exits), and its next statement fails.
    const inTransaction = ctx.database.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      await direct('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await sleep(100);
      await sql`select 1`.execute(trx);
    });
    await expect(inTransaction).rejects.toSatisfy(isDatabaseUnavailable);
    expect(logged).toContain('database connection lost while in use; it will be replaced');

    const after = await Promise.all([me(), transfer('in-use-1')]);
    expect(after.map((response) => response.statusCode)).toEqual([200, 201]);
  });

  it('answers 503 with Retry-After while PostgreSQL is unreachable, and recovers by itself', async () => {
    expect((await transfer('before-outage')).statusCode).toBe(201);
    await proxy.down();
    try {
      for (const response of [
        await me(),
        await transfer('during-outage'),
        await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(token) }),
      ]) {
        expect(response.statusCode).toBe(503);
        expect(response.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS));
        expect(json(response)).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE, code: 'unavailable' });
      }
      const signInDown = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: 'alex.morgan@example.com', password: 'Ledgerline-Demo-2026' },
      });
      expect(signInDown.statusCode).toBe(503);

      // The ledger writer refuses its whole batch with the same 503 (and not one entry at a time).
      const entry = {
        ...move,
        postings: [
          { accountId: accounts.savings, amountCents: -1 },
          { accountId: accounts.checking, amountCents: 1 },
        ],
      };
      const refused = await Promise.allSettled(
        Array.from({ length: 5 }, () => ctx.context.ledger.submit({ entry, answer: () => ({ data: null }), idempotency: null })),
      );
      for (const result of refused) {
        expect(result.status).toBe('rejected');
        const reason = (result as PromiseRejectedResult).reason as AppError;
        expect(reason).toBeInstanceOf(AppError);
        expect(reason.code).toBe('unavailable');
        expect(reason.message).toBe(DATABASE_UNAVAILABLE_MESSAGE);
      }
      expect(logged).toContain('ledger batch refused: the database is unavailable');
      expect(logged).not.toContain('request failed');
    } finally {
      await proxy.up();
    }

    // Back without restarting anything: the same app, the same writer.
    const after = await Promise.all([me(), transfer('after-outage-1'), transfer('after-outage-2')]);
    expect(after.map((response) => response.statusCode)).toEqual([200, 201, 201]);
    // A retry of the refused transfer with its key posts it now, once.
    expect((await transfer('during-outage')).statusCode).toBe(201);
    expect((await transfer('during-outage')).statusCode).toBe(201);
    await sealAll(ctx.database.db);
    const verified = await verifyLedger(ctx.database.db);
    expect(verified.ok).toBe(true);
    const keys = await direct<{ key: string }>("select key from idempotency_keys where key like 'during-outage%'");
    expect(keys).toHaveLength(1);
  });
});
