import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer, createCustomer, createTestApp, json, type TestContext, mailbox } from '../support/app';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

const request = (token: string, payload: unknown = {}) =>
  ctx.app.inject({ method: 'POST', url: '/api/cards/requests', headers: bearer(token), payload: payload as object });
const staffSet = (id: string, payload: unknown, token = admin) =>
  ctx.app.inject({ method: 'PATCH', url: `/api/admin/cards/requests/${id}`, headers: bearer(token), payload: payload as object });

describe('card requests', () => {
  it("records a request, answers 'Card request sent we will get back to you', and lists it", async () => {
    const customer = await createCustomer(ctx);
    const response = await request(customer.token);
    expect(response.statusCode).toBe(201);
    expect(json(response).message).toBe('Card request sent we will get back to you');
    expect(json(response).data).toMatchObject({ cardType: 'debit', status: 'pending' });
    const mine = json(await ctx.app.inject({ method: 'GET', url: '/api/cards/requests', headers: bearer(customer.token) })).data;
    expect(mine).toHaveLength(1);
    // A second open request of the same type is refused; a credit card may be asked for too.
    const again = await request(customer.token);
    expect(again.statusCode).toBe(409);
    expect((await request(customer.token, { cardType: 'credit' })).statusCode).toBe(201);
  });

  it('refuses unknown card types and non-customers', async () => {
    const customer = await createCustomer(ctx);
    const bad = await request(customer.token, { cardType: 'platinum' });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).message).toBe('Card type must be debit or credit');
    expect((await ctx.app.inject({ method: 'POST', url: '/api/cards/requests', payload: {} })).statusCode).toBe(401);
    expect((await request(admin)).statusCode).toBe(403);
  });

  it('lets staff approve then ship, audited and emailed; a customer sees only their own requests', async () => {
    const customer = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const id = json(await request(customer.token)).data._id;
    const queue = json(await ctx.app.inject({ method: 'GET', url: '/api/admin/cards/requests?status=pending', headers: bearer(admin) })).data;
    expect(queue.items.find((item: { _id: string }) => item._id === id)?.customer.email).toBe(customer.email);

    expect((await staffSet(id, { status: 'shipped' })).statusCode).toBe(409);
    const approved = await staffSet(id, { status: 'approved' });
    expect(approved.statusCode).toBe(200);
    expect(json(approved).data.status).toBe('approved');
    expect(json(approved).message).toBe('Card request approved');
    const shipped = await staffSet(id, { status: 'shipped', note: 'Posted today' });
    expect(shipped.statusCode).toBe(200);
    expect(json(shipped).message).toBe('Card request marked as shipped');
    const mine = json(await ctx.app.inject({ method: 'GET', url: '/api/cards/requests', headers: bearer(customer.token) })).data;
    expect(mine[0]).toMatchObject({ status: 'shipped', note: 'Posted today' });
    expect(json(await ctx.app.inject({ method: 'GET', url: '/api/cards/requests', headers: bearer(other.token) })).data).toHaveLength(0);
    const log = await ctx.database.db.selectFrom('audit_log').select(['action']).where('target_id', '=', id).execute();
    expect(log.map((row) => row.action)).toEqual(['card_request.status', 'card_request.status']);
    expect((await mailbox(ctx)).some((mail) => mail.to === customer.email && /card on its way/.test(mail.subject))).toBe(true);
  });

  it('needs a reason to decline; staff only; unknown ids are 404', async () => {
    const customer = await createCustomer(ctx);
    const id = json(await request(customer.token)).data._id;
    const noReason = await staffSet(id, { status: 'rejected' });
    expect(noReason.statusCode).toBe(400);
    expect(json(noReason).message).toBe('A reason is required to decline a card request');
    expect((await staffSet(id, { status: 'approved' }, customer.token)).statusCode).toBe(403);
    expect((await staffSet(crypto.randomUUID(), { status: 'approved' })).statusCode).toBe(404);
    expect((await staffSet('nope', { status: 'approved' })).statusCode).toBe(404);
    expect((await staffSet(id, { status: 'rejected', note: 'Address could not be confirmed' })).statusCode).toBe(200);
    expect((await staffSet(id, { status: 'approved' })).statusCode).toBe(409);
  });
});
