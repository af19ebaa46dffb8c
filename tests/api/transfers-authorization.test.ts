import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer, createCustomer, json, lastCode, type TestContext, createTestApp, valueDate, staffCall } from '../support/app';

// Customer A can neither read nor move customer B's money: every call, every id.
let ctx: TestContext;
let admin: string;
let a: Awaited<ReturnType<typeof createCustomer>>;
let b: Awaited<ReturnType<typeof createCustomer>>;
let bPostingId: string;
let bEntryId: string;
let keySeq = 0;
const key = () => `authz-${Date.now()}-${keySeq++}`;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
  a = await createCustomer(ctx);
  b = await createCustomer(ctx);
  for (const customer of [a, b]) {
    const funded = await staffCall(ctx, {
      method: 'POST',
      url: `/api/transaction/admin/${customer.userId}`,
      headers: { ...bearer(admin), 'idempotency-key': key() },
      payload: { amount: 100, transactionType: 'credit', date: valueDate(), description: 'Funding', reason: 'test setup' },
    });
    expect(funded.statusCode).toBe(201);
  }
  const line = json(await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(b.token) })).data.items[0];
  bPostingId = line._id;
  bEntryId = line.entryId;
});
afterAll(async () => ctx?.close());

const balances = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data.account;

describe('object-level authorization', () => {
  it('lists only the caller’s own lines', async () => {
    for (const url of ['/api/transaction', '/api/transaction/complete', `/api/transaction?pageSize=100&account=checking`]) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: bearer(a.token) });
      expect(response.statusCode).toBe(200);
      const ids = json(response)
        .data.items.map((item: { _id: string; entryId: string }) => [item._id, item.entryId])
        .flat();
      expect(ids).not.toContain(bPostingId);
      expect(ids).not.toContain(bEntryId);
      expect(json(response).data.total).toBe(1);
    }
    // A query parameter naming B changes nothing: the session decides.
    const sneaky = await ctx.app.inject({ method: 'GET', url: `/api/transaction?userId=${b.userId}`, headers: bearer(a.token) });
    expect(json(sneaky).data.items.every((item: { _id: string }) => item._id !== bPostingId)).toBe(true);
  });

  it('refuses every staff call to a customer, for every id of B', async () => {
    const headers = { ...bearer(a.token), 'idempotency-key': key() };
    const calls: Array<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown> }> = [
      { method: 'GET', url: '/api/transaction/admin' },
      { method: 'GET', url: `/api/transaction/admin/${b.userId}` },
      {
        method: 'POST',
        url: `/api/transaction/admin/${b.userId}`,
        payload: { amount: 5, transactionType: 'debit', date: valueDate(), description: 'x', reason: 'steal' },
      },
      {
        method: 'POST',
        url: `/api/transaction/admin/${a.userId}`,
        payload: { amount: 5, transactionType: 'credit', date: valueDate(), description: 'x', reason: 'gift' },
      },
      { method: 'PUT', url: `/api/transaction/admin/${bPostingId}`, payload: { description: 'mine now' } },
      { method: 'PUT', url: `/api/transaction/admin/${bEntryId}`, payload: { description: 'mine now' } },
      { method: 'DELETE', url: `/api/transaction/admin/${bPostingId}`, payload: { reason: 'undo' } },
      { method: 'DELETE', url: `/api/transaction/admin/${bEntryId}`, payload: { reason: 'undo' } },
      { method: 'PUT', url: `/api/user/admin/account/${b.userId}`, payload: { savings: 0, checking: 0, number: b.accountNumber, reason: 'zero' } },
      { method: 'PUT', url: `/api/user/admin/account/${a.userId}`, payload: { savings: 1000, checking: 1000, number: a.accountNumber, reason: 'rich' } },
    ];
    for (const call of calls) {
      const response = await ctx.app.inject({ ...call, headers });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      const anonymous = await ctx.app.inject({ ...call, headers: { 'idempotency-key': key() } });
      expect(anonymous.statusCode, `anonymous ${call.method} ${call.url}`).toBe(401);
    }
  });

  it('cannot move B’s money through any transfer call', async () => {
    // `from` naming B's account is refused; the session decides the source.
    const fromB = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/transfer',
      headers: { ...bearer(a.token), 'idempotency-key': key() },
      payload: { from: b.accountNumber, amount: 10, accountType: 'checking', accountNumber: a.accountNumber, to: 'Me' },
    });
    expect(fromB.statusCode).toBe(403);
    // Extra fields cannot smuggle B's account in: internal transfers always use the caller's accounts.
    const internal = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { ...bearer(a.token), 'idempotency-key': key() },
      payload: { from: 'checking', to: 'savings', amount: 10, userId: b.userId, accountNumber: b.accountNumber },
    });
    expect(internal.statusCode).toBe(201);
    // A code mailed to B does not authorize A's call, and A's code lands in A's mailbox only.
    const bStep = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/transfer',
      headers: { ...bearer(b.token), 'idempotency-key': key() },
      payload: { amount: 10, accountType: 'checking', accountNumber: a.accountNumber, to: 'A' },
    });
    expect(bStep.statusCode).toBe(200);
    const bCode = await lastCode(ctx, b.email);
    const stolen = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/transfer',
      headers: { ...bearer(a.token), 'idempotency-key': key() },
      payload: { from: b.accountNumber, amount: 10, accountType: 'checking', accountNumber: a.accountNumber, to: 'A', paymentPin: bCode },
    });
    expect(stolen.statusCode).toBe(403);
    const withoutFrom = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/transfer',
      headers: { ...bearer(a.token), 'idempotency-key': key() },
      payload: { amount: 10, accountType: 'checking', accountNumber: '123456789', routingNumber: '021000021', bankName: 'X', to: 'A', paymentPin: bCode },
    });
    expect(withoutFrom.statusCode).toBe(400);
    expect(await balances(b.token)).toMatchObject({ checking: 100, savings: 0 });
    expect(await balances(a.token)).toMatchObject({ checking: 90, savings: 10 });
  });

  it('keeps admins out of customer calls', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/transaction', headers: bearer(admin) });
    expect(response.statusCode).toBe(403);
    const move = await ctx.app.inject({
      method: 'POST',
      url: '/api/transaction/internal-transfer',
      headers: { ...bearer(admin), 'idempotency-key': key() },
      payload: { from: 'checking', to: 'savings', amount: 1 },
    });
    expect(move.statusCode).toBe(403);
  });
});
