import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createTestApp, json, type TestContext } from '../support/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

describe('health and identity smoke', () => {
  it('answers /api/health as the readiness check, revealing nothing else', async () => {
    for (const url of ['/api/health', '/api/health/ready', '/api/health/live']) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(json(response), url).toEqual({ data: { status: 'ok' } });
    }
  });
  it('signs up, verifies and reads /api/user/me', async () => {
    const customer = await createCustomer(ctx);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${customer.token}` } });
    expect(me.statusCode).toBe(200);
    expect(json(me).data.account.number).toMatch(/^\d{10}$/);
    expect(json(me).data.isEmailConfirmed).toBe(true);
    expect(me.body).not.toContain('password');
  });
});
