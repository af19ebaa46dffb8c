import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferLinkFor } from '../../src/shared/contracts/beneficiaries';
import { OWN_ACCOUNT_PAYEE_MESSAGE } from '../../src/server/beneficiaries/service';
import { adminToken, bearer, createCustomer, createTestApp, json, type TestContext } from '../support/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

const payee = { name: 'Chris Park', accountNumber: '123456789', routingNumber: '021000021', bankName: 'Chase' };
const save = (token: string, body: unknown) => ctx.app.inject({ method: 'POST', url: '/api/beneficiaries', headers: bearer(token), payload: body as object });
const list = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/beneficiaries', headers: bearer(token) })).data;

describe('beneficiaries', () => {
  it('starts empty, saves a payee once, lists it and removes it', async () => {
    const customer = await createCustomer(ctx);
    expect(await list(customer.token)).toEqual([]);
    const saved = await save(customer.token, payee);
    expect(saved.statusCode).toBe(201);
    expect(json(saved).data).toMatchObject(payee);
    const twice = await save(customer.token, { ...payee, name: 'Chris P.' });
    expect(twice.statusCode).toBe(200);
    expect(json(twice).data._id).toBe(json(saved).data._id);
    expect(await list(customer.token)).toHaveLength(1);

    const removed = await ctx.app.inject({ method: 'DELETE', url: `/api/beneficiaries/${json(saved).data._id}`, headers: bearer(customer.token) });
    expect(removed.statusCode).toBe(200);
    expect(await list(customer.token)).toEqual([]);
  });

  it('saves a payee at this bank without routing number or bank name', async () => {
    const customer = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const response = await save(customer.token, { name: 'A Neighbour', accountNumber: other.accountNumber });
    expect(response.statusCode).toBe(201);
    expect(json(response).data).toMatchObject({ accountNumber: other.accountNumber, routingNumber: '', bankName: '' });
  });

  it('refuses a payee it could never pay: no account here by that number, or another bank without its routing number or name', async () => {
    const customer = await createCustomer(ctx);
    const unknown = await save(customer.token, { name: 'Nobody Here', accountNumber: '1234567890' });
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown)).toMatchObject({
      message: 'No account at this bank has that number. For an account at another bank, enter its routing number and bank name.',
      fields: { accountNumber: 'No account at this bank has that number' },
    });
    const noBankName = await save(customer.token, { ...payee, bankName: '' });
    expect(noBankName.statusCode).toBe(400);
    expect(json(noBankName).fields).toEqual({ bankName: 'Bank name is required for another bank' });
    const noRouting = await save(customer.token, { ...payee, routingNumber: '' });
    expect(noRouting.statusCode).toBe(400);
    expect(json(noRouting).fields).toEqual({ routingNumber: 'Routing number is required for another bank' });
    // Their own account: a transfer to it is refused, so it is no payee either.
    const own = await save(customer.token, { name: 'Me', accountNumber: customer.accountNumber });
    expect(own.statusCode).toBe(400);
    expect(json(own)).toMatchObject({ message: OWN_ACCOUNT_PAYEE_MESSAGE, fields: { accountNumber: OWN_ACCOUNT_PAYEE_MESSAGE } });
    expect(await list(customer.token)).toEqual([]);
  });

  it('refuses bad input', async () => {
    const customer = await createCustomer(ctx);
    const routing = await save(customer.token, { ...payee, routingNumber: '123456789' });
    expect(routing.statusCode).toBe(400);
    expect(json(routing).message).toBe('Routing number must be a valid 9-digit ABA number');
    const account = await save(customer.token, { ...payee, accountNumber: '12ab' });
    expect(account.statusCode).toBe(400);
    expect(json(account).message).toBe('Account number must be 4 to 17 digits');
    expect(json(await save(customer.token, { ...payee, name: '' })).message).toBe('Name is required');
    expect((await save(customer.token, { ...payee, name: 'x'.repeat(200) })).statusCode).toBe(400);
    expect((await save(customer.token, { ...payee, bankName: 7 })).statusCode).toBe(400);
    expect(await list(customer.token)).toEqual([]);
  });

  it("never shows or removes another customer's payee", async () => {
    const owner = await createCustomer(ctx);
    const other = await createCustomer(ctx);
    const id = json(await save(owner.token, payee)).data._id;
    expect(await list(other.token)).toEqual([]);
    const stolen = await ctx.app.inject({ method: 'DELETE', url: `/api/beneficiaries/${id}`, headers: bearer(other.token) });
    expect(stolen.statusCode).toBe(404);
    expect(await list(owner.token)).toHaveLength(1);
    expect((await ctx.app.inject({ method: 'DELETE', url: '/api/beneficiaries/not-an-id', headers: bearer(owner.token) })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/beneficiaries' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/beneficiaries', headers: bearer(await adminToken(ctx)) })).statusCode).toBe(403);
  });

  it('builds the transfer link the transfer form reads', () => {
    expect(transferLinkFor(payee)).toBe('/account/transfer?accountNumber=123456789&routingNumber=021000021&bankName=Chase&to=Chris+Park');
  });
});
