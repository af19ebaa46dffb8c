import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PAYMENT_REQUEST_ALREADY_CANCELLED_MESSAGE,
  PAYMENT_REQUEST_EXPIRED_MESSAGE,
  PAYMENT_REQUEST_EXPIRY_MS,
  PAYMENT_REQUEST_NOT_FOUND_MESSAGE,
} from '../../src/shared/contracts/payment-requests';
import { bearer, createCustomer, createTestApp, drainJobs, json, type TestContext } from '../support/app';

// Issue 14's payment requests, cancel and expiry (ADR 020): the requester cancels a pending request
// (the payer is told; nobody else can), and a request nobody answered expires after 30 days: both
// lists say so and it can no longer be paid or declined. A request's times are moved back, not waited for.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

const post = (token: string, url: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, headers: { ...bearer(token), ...headers }, ...(payload ? { payload } : {}) });
const lists = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/payment-requests', headers: bearer(token) })).data;
const notifications = async (token: string) =>
  json(await ctx.app.inject({ method: 'GET', url: '/api/notifications', headers: bearer(token) })).data.items as Array<{ kind: string; title: string }>;
const statusInDb = async (id: string) =>
  (await ctx.database.db.selectFrom('payment_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describe('cancelling a request', () => {
  it('is for its requester only, once, while pending; the payer is told and can no longer pay or decline it', async () => {
    const [alex, jamie] = [await createCustomer(ctx, { firstName: 'Alex', lastName: 'Asker' }), await createCustomer(ctx, { firstName: 'Jamie' })];
    const sent = json(await post(alex.token, '/api/payment-requests', { to: jamie.email, amount: 40, note: 'Concert' })).data;
    await drainJobs(ctx);

    // The payer and a stranger cannot cancel it: 404, as for no request at all.
    for (const token of [jamie.token, (await createCustomer(ctx)).token]) {
      const refused = await post(token, `/api/payment-requests/${sent.id}/cancel`);
      expect(refused.statusCode).toBe(404);
      expect(json(refused).message).toBe(PAYMENT_REQUEST_NOT_FOUND_MESSAGE);
    }
    expect((await post(alex.token, `/api/payment-requests/${randomUUID()}/cancel`)).statusCode).toBe(404);
    expect((await post(alex.token, '/api/payment-requests/not-an-id/cancel')).statusCode).toBe(404);
    expect(await statusInDb(sent.id)).toBe('pending');

    const cancelled = await post(alex.token, `/api/payment-requests/${sent.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(json(cancelled)).toEqual({
      data: expect.objectContaining({ id: sent.id, direction: 'sent', status: 'cancelled', answeredAt: expect.any(String) }),
      message: 'Payment request cancelled',
    });
    const again = await post(alex.token, `/api/payment-requests/${sent.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(json(again).message).toBe(PAYMENT_REQUEST_ALREADY_CANCELLED_MESSAGE);

    expect((await notifications(jamie.token)).find((item) => item.kind === 'payment_request_cancelled')).toMatchObject({
      title: 'Alex Asker cancelled their request for $40.00',
    });
    expect((await lists(jamie.token)).received.items[0]).toMatchObject({ id: sent.id, status: 'cancelled' });
    expect((await lists(alex.token)).sent.items[0]).toMatchObject({ id: sent.id, status: 'cancelled' });
    const pay = await post(jamie.token, `/api/payment-requests/${sent.id}/pay`, { from: 'checking' }, { 'idempotency-key': randomUUID() });
    expect(pay.statusCode).toBe(409);
    expect(json(pay).message).toBe(PAYMENT_REQUEST_ALREADY_CANCELLED_MESSAGE);
    expect((await post(jamie.token, `/api/payment-requests/${sent.id}/decline`)).statusCode).toBe(409);
  });
});

describe('expiry', () => {
  it('a pending request expires 30 days after it was made: both lists show it expired, and it can no longer be paid, declined or cancelled', async () => {
    const [alex, jamie] = [await createCustomer(ctx), await createCustomer(ctx)];
    const sent = json(await post(alex.token, '/api/payment-requests', { to: jamie.email, amount: 12 })).data;
    expect(new Date(sent.expiresAt).getTime() - new Date(sent.createdAt).getTime()).toBe(PAYMENT_REQUEST_EXPIRY_MS);

    // The request was made 30 days less a minute ago (its times moved back as the clock would move
    // forward: the sessions of this test stay young): still pending.
    const age = async (ms: number) =>
      ctx.database.db
        .updateTable('payment_requests')
        .set((eb) => ({
          created_at: sql`${eb.ref('created_at')} - ${`${ms} milliseconds`}::interval`,
          expires_at: sql`${eb.ref('expires_at')} - ${`${ms} milliseconds`}::interval`,
        }))
        .where('id', '=', sent.id)
        .execute();
    await age(PAYMENT_REQUEST_EXPIRY_MS - 60_000);
    expect((await lists(jamie.token)).received.items[0]).toMatchObject({ id: sent.id, status: 'pending' });

    await age(61_000);
    const [alexToken, jamieToken] = [alex.token, jamie.token];
    expect((await lists(jamieToken)).received.items[0]).toMatchObject({ id: sent.id, status: 'expired', answeredAt: null });
    expect((await lists(alexToken)).sent.items[0]).toMatchObject({ id: sent.id, status: 'expired' });
    for (const [token, action] of [
      [jamieToken, 'pay'],
      [jamieToken, 'decline'],
      [alexToken, 'cancel'],
    ] as const) {
      const refused = await post(token, `/api/payment-requests/${sent.id}/${action}`, action === 'pay' ? { from: 'checking' } : undefined, {
        'idempotency-key': randomUUID(),
      });
      expect(refused.statusCode, action).toBe(409);
      expect(json(refused).message).toBe(PAYMENT_REQUEST_EXPIRED_MESSAGE);
    }
    // Nothing stored changed: expiry is the clock's, not a write.
    expect(await statusInDb(sent.id)).toBe('pending');
  });
});
