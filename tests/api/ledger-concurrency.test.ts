import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealAll } from '../../src/server/ledger/sealer';
import { verifyLedger } from '../../src/server/ledger/verify';
import { adminToken, bearer, createCustomer, json, lastCode, type TestContext, createTestApp, valueDate, staffCall, fund } from '../support/app';

const run = promisify(execFile);
let ctx: TestContext;
let admin: string;
let keySeq = 0;
const key = () => `conc-${Date.now()}-${keySeq++}`;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

async function verifyCli(): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'src/server/cli/verify-ledger.ts'], {
      env: { ...process.env, DATABASE_URL: ctx.databaseUrl, LOG_LEVEL: 'silent' },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, output: failure.stdout + failure.stderr };
  }
}

describe('concurrency on PostgreSQL', () => {
  it('50 simultaneous transfers from an account that can afford 10: exactly 10 post, balance 0', async () => {
    const customer = await createCustomer(ctx);
    await fund(ctx, customer.userId, 100);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/transaction/internal-transfer',
          headers: { ...bearer(customer.token), 'idempotency-key': key() },
          payload: { from: 'checking', to: 'savings', amount: 10 },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 400)).toHaveLength(40);
    expect(responses.filter((response) => response.statusCode === 400).every((response) => json(response).message === 'Insufficient funds')).toBe(true);
    const account = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(customer.token) })).data.account;
    expect(account).toMatchObject({ checking: 0, savings: 100 });
  });

  it('transfers in both directions between two customers at once never deadlock', async () => {
    const left = await createCustomer(ctx);
    const right = await createCustomer(ctx);
    await fund(ctx, left.userId, 1000);
    await fund(ctx, right.userId, 1000);
    // Codes are per customer and newest-wins, so each side posts its transfers one code at a time,
    // while the two sides (and internal moves) run concurrently against the same accounts.
    const side = async (from: typeof left, to: typeof right) => {
      for (let round = 0; round < 8; round += 1) {
        const payload = { amount: 5, accountType: 'checking', accountNumber: to.accountNumber, to: 'Peer' };
        const first = await ctx.app.inject({
          method: 'POST',
          url: '/api/transaction/transfer',
          headers: { ...bearer(from.token), 'idempotency-key': key() },
          payload,
        });
        expect(first.statusCode).toBe(200);
        const done = await ctx.app.inject({
          method: 'POST',
          url: '/api/transaction/transfer',
          headers: { ...bearer(from.token), 'idempotency-key': key() },
          payload: { ...payload, paymentPin: await lastCode(ctx, from.email) },
        });
        expect(done.statusCode).toBe(201);
      }
    };
    const shuffle = async (who: typeof left) => {
      const moves = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          ctx.app.inject({
            method: 'POST',
            url: '/api/transaction/internal-transfer',
            headers: { ...bearer(who.token), 'idempotency-key': key() },
            payload: index % 2 ? { from: 'checking', to: 'savings', amount: 1 } : { from: 'savings', to: 'checking', amount: 1 },
          }),
        ),
      );
      return moves.map((move) => move.statusCode);
    };
    const [, , leftMoves, rightMoves] = await Promise.all([side(left, right), side(right, left), shuffle(left), shuffle(right)]);
    expect([...leftMoves, ...rightMoves].every((status) => status === 201 || status === 400)).toBe(true);
    const total = async (token: string) => {
      const account = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data.account;
      return Math.round((account.savings + account.checking) * 100);
    };
    expect((await total(left.token)) + (await total(right.token))).toBe(200_000);
    expect(await total(left.token)).toBe(100_000);
  });

  it('group-committed payments and staff entries posted at the same time keep one valid chain', async () => {
    const customers = await Promise.all(Array.from({ length: 5 }, () => createCustomer(ctx)));
    for (const customer of customers) {
      await fund(ctx, customer.userId, 100);
      await fund(ctx, customer.userId, 50, { account: 'savings' });
    }
    const moves = customers.flatMap((customer) =>
      Array.from({ length: 20 }, (_, index) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/transaction/internal-transfer',
          headers: { ...bearer(customer.token), 'idempotency-key': key() },
          payload: index % 2 ? { from: 'savings', to: 'checking', amount: 1 } : { from: 'checking', to: 'savings', amount: 2 },
        }),
      ),
    );
    const staff = customers.map((customer) =>
      staffCall(ctx, {
        method: 'POST',
        url: `/api/transaction/admin/${customer.userId}`,
        headers: { ...bearer(admin), 'idempotency-key': key() },
        payload: { amount: 7, transactionType: 'credit', date: valueDate(), description: 'Bonus', reason: 'concurrency test', account: 'savings' },
      }),
    );
    const answers = await Promise.all([...moves, ...staff]);
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(answers.length).fill(201));
    for (const customer of customers) {
      const account = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(customer.token) })).data.account;
      // 10 x (checking -2, savings +2) and 10 x (savings -1, checking +1), plus the staff credit of 7.
      expect(account).toMatchObject({ checking: 100 - 20 + 10, savings: 50 + 20 - 10 + 7 });
    }
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
  });

  it('the ledger verifies after the load, and `npm run ledger:verify` says OK', async () => {
    expect(await verifyLedger(ctx.database.db)).toMatchObject({ ok: true });
    const cli = await verifyCli();
    expect(cli.code).toBe(0);
    expect(cli.output).toMatch(/^OK: \d+ entries/m);
  });
});

describe('tamper detection', () => {
  it('reports a posting changed with plain SQL behind the app’s back, and exits non-zero', async () => {
    const customer = await createCustomer(ctx);
    await fund(ctx, customer.userId, 40);
    const target = await ctx.database.db
      .selectFrom('postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select(['p.id', 'p.entry_id', 'p.entry_seq'])
      .where('a.owner_id', '=', customer.userId)
      .executeTakeFirstOrThrow();
    const client = new pg.Client({ connectionString: ctx.databaseUrl });
    await client.connect();
    try {
      // A superuser can switch the append-only triggers off; the hash chain still tells.
      await client.query('set session_replication_role = replica');
      await client.query('update postings set amount = amount + 100000, balance_after = balance_after + 100000 where id = $1', [target.id]);
      await client.query("update ledger_accounts set balance = balance + 100000 where owner_id = $1 and kind = 'checking'", [customer.userId]);
      await client.query('set session_replication_role = origin');
    } finally {
      await client.end();
    }
    const result = await verifyLedger(ctx.database.db);
    expect(result).toMatchObject({ ok: false, entryId: target.entry_id, seq: target.entry_seq });
    const cli = await verifyCli();
    expect(cli.code).toBe(1);
    expect(cli.output).toContain(`FAILED at entry ${target.entry_id}`);
  });

  it('reports an entry whose words were rewritten once it is on the hash chain', async () => {
    // Balances alone cannot see a changed description or counterparty: the chain can, once the
    // sealer has chained the entry (an edit inside the sealing delay is the documented gap, ADR 008).
    const fresh = await createTestApp();
    try {
      const customer = await createCustomer(fresh);
      const staff = await adminToken(fresh);
      const funded = await staffCall(fresh, {
        method: 'POST',
        url: `/api/transaction/admin/${customer.userId}`,
        headers: { ...bearer(staff), 'idempotency-key': `tamper-${Date.now()}` },
        payload: { amount: 12, transactionType: 'credit', date: valueDate(), description: 'Honest words', reason: 'tamper test' },
      });
      expect(funded.statusCode, funded.body).toBe(201);
      const entryId = json(funded).data.entryId as string;
      expect(await sealAll(fresh.database.db)).toBeGreaterThan(0);
      expect(await verifyLedger(fresh.database.db)).toMatchObject({ ok: true, unsealed: 0 });
      const client = new pg.Client({ connectionString: fresh.databaseUrl });
      await client.connect();
      try {
        await client.query('set session_replication_role = replica');
        await client.query("update journal_entries set description = 'Rewritten words' where id = $1", [entryId]);
        await client.query('set session_replication_role = origin');
      } finally {
        await client.end();
      }
      const result = await verifyLedger(fresh.database.db);
      expect(result).toMatchObject({ ok: false, entryId });
      expect(result.ok ? '' : result.problem).toMatch(/^hash does not match the entry and its postings \(chain position \d+\)$/);
    } finally {
      await fresh.close();
    }
  });
});
