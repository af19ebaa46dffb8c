import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealAll } from '../../src/server/ledger/sealer';
import { adminToken, bearer, createCustomer, createTestApp, json, type TestContext } from '../support/app';

// The general ledger page's calls: the bank's own accounts and the chain head, and the same
// verification as `npm run ledger:verify`, run from the back office and recorded in the audit log.
let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

const overview = (token: string) => ctx.app.inject({ method: 'GET', url: '/api/admin/ledger', headers: bearer(token) });
const verify = (token: string) => ctx.app.inject({ method: 'POST', url: '/api/admin/ledger/verify', headers: bearer(token), payload: {} });

describe('GET /api/admin/ledger', () => {
  it("shows the bank's accounts, what it holds for customers, a zero total and the chain head", async () => {
    await sealAll(ctx.database.db); // the head is the last chained entry: chain what is waiting first
    const response = await overview(admin);
    expect(response.statusCode).toBe(200);
    const data = json(response).data;
    expect(data.bankAccounts.map((account: { kind: string }) => account.kind).sort()).toEqual([
      'bank_cash',
      'bank_operations',
      'external_clearing',
      'interest_income',
      'loans_receivable',
    ]);
    const customers = await ctx.database.db.selectFrom('ledger_accounts').select(['balance']).where('owner_id', 'is not', null).execute();
    expect(data.customerBalancesCents).toBe(customers.reduce((sum, account) => sum + account.balance, 0));
    expect(data.customerBalancesCents).toBeGreaterThan(0); // the demo customers' opening balances
    expect(data.customerAccounts).toBe(customers.length);
    expect(data.totalCents).toBe(0);
    const entries = await ctx.database.db
      .selectFrom('journal_entries')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(data.head.seq).toBe(Number(entries.count));
    expect(data.head.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is for staff only', async () => {
    const customer = await createCustomer(ctx);
    expect((await overview(customer.token)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/ledger' })).statusCode).toBe(401);
    expect((await verify(customer.token)).statusCode).toBe(403);
  });
});

describe('POST /api/admin/ledger/verify', () => {
  it('recomputes the chain and every balance, says OK, and records who ran it', async () => {
    const response = await verify(admin);
    expect(response.statusCode).toBe(200);
    const data = json(response).data;
    expect(data).toMatchObject({ ok: true, problem: null, seq: null });
    expect(data.entries).toBeGreaterThan(0);
    expect(json(response).message).toMatch(
      // ADR 014 extends the line with the audit chain and the anchors of ANCHOR_FILE.
      /^OK: \d+ entries, \d+ accounts; every balance matches, \d+ entries on the hash chain(; \d+ newest not sealed yet [^;]*)?; \d+ audit records on the audit chain[^;]*; (no anchors yet|1 anchor matches, newest at \S+|\d+ anchors match, newest at \S+)\.$/,
    );
    const log = await ctx.database.db.selectFrom('audit_log').select(['action', 'after']).where('action', '=', 'ledger.verify').execute();
    expect(log).toHaveLength(1);
    expect(log[0]?.after).toMatchObject({ ok: true, entries: data.entries });
  });

  it('reports a balance changed behind the ledger, naming what does not match', async () => {
    const own = await createTestApp();
    try {
      const token = await adminToken(own);
      await own.database.db
        .updateTable('ledger_accounts')
        .set((eb) => ({ balance: eb('balance', '+', 1) }))
        .where('owner_id', 'is not', null)
        .where('balance', '>', 0)
        .execute();
      const response = await own.app.inject({ method: 'POST', url: '/api/admin/ledger/verify', headers: bearer(token), payload: {} });
      expect(response.statusCode).toBe(200);
      const data = json(response).data;
      expect(data.ok).toBe(false);
      expect(data.problem).toBeTruthy();
      expect(json(response).message).toMatch(/^FAILED at /);
      expect(json(await own.app.inject({ method: 'GET', url: '/api/admin/ledger', headers: bearer(token) })).data.totalCents).not.toBe(0);
    } finally {
      await own.close();
    }
  });
});
