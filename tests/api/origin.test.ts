import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createTestApp, json, testSigningKeyFile, type TestContext } from '../support/app';

// CSRF: a state-changing call that rides on the session cookie must come from the bank's own
// pages. PUBLIC_URL is https://bank.example here; the test app is reached as http://localhost.
let ctx: TestContext;
let production: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://bank.example' } });
  production = await createTestApp({
    seedDemo: false,
    env: {
      NODE_ENV: 'production',
      DEMO_MODE: 'false',
      SMTP_URL: 'smtp://127.0.0.1:1',
      PUBLIC_URL: 'https://bank.example',
      BANK_SIGNING_KEY_FILE: testSigningKeyFile(),
    },
  });
});
afterAll(async () => {
  await ctx?.close();
  await production?.close();
});

const REFUSED = 'This request did not come from the bank’s own pages, so it was refused. Reload the page and try again.';

async function cookieOf(app: TestContext, email: string, password: string): Promise<string> {
  const response = await app.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });
  expect(response.statusCode).toBe(200);
  return `ll_session=${response.cookies.find((cookie) => cookie.name === 'll_session')!.value}`;
}

describe('the Origin check on cookie sessions', () => {
  it('refuses a cross-origin POST with the session cookie (403, a clear message) and changes nothing', async () => {
    const customer = await createCustomer(ctx);
    const cookie = await cookieOf(ctx, customer.email, customer.password);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(json(response)).toEqual({ message: REFUSED, code: 'forbidden' });
    // The customer's other session (the bearer one) is still there.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: { authorization: `Bearer ${customer.token}` } })).statusCode).toBe(200);
  });

  it.each([
    ['no Origin and no Referer', {}],
    ['Origin "null" (a sandboxed frame)', { origin: 'null' }],
    ['a look-alike host', { origin: 'https://bank.example.evil.example' }],
    ['another port', { origin: 'https://bank.example:8443' }],
    ['plain http for an https bank', { origin: 'http://bank.example' }],
    ['a foreign Referer when Origin is missing', { referer: 'https://evil.example/bank.example/form' }],
    ['a Referer that is not a URL', { referer: 'bank.example' }],
  ])('refuses %s with the cookie, on every state-changing method', async (_label, headers: Record<string, string>) => {
    const customer = await createCustomer(ctx);
    const cookie = await cookieOf(ctx, customer.email, customer.password);
    for (const [method, url] of [
      ['POST', '/api/auth/signout'],
      ['PUT', '/api/loans/00000000-0000-4000-8000-000000000000'],
      ['PATCH', '/api/user/profile'],
      ['DELETE', '/api/auth/sessions/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const response = await ctx.app.inject({ method, url, headers: { cookie, ...headers }, payload: {} });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(json(response).message).toBe(REFUSED);
    }
    // Sign-out was refused: the cookie still works.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
  });

  it("lets the bank's own pages through: PUBLIC_URL's origin, or its Referer when there is no Origin", async () => {
    const customer = await createCustomer(ctx);
    const cookie = await cookieOf(ctx, customer.email, customer.password);
    const viaOrigin = await ctx.app.inject({ method: 'POST', url: '/api/auth/sessions/revoke-others', headers: { cookie, origin: 'https://bank.example' } });
    expect(viaOrigin.statusCode, viaOrigin.body).toBe(200);
    const viaReferer = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      headers: { cookie, referer: 'https://bank.example/account/security?x=1' },
    });
    expect(viaReferer.statusCode, viaReferer.body).toBe(200);
  });

  it("outside production, also the server's own origin (a developer reaching it by another name)", async () => {
    const customer = await createCustomer(ctx);
    const cookie = await cookieOf(ctx, customer.email, customer.password);
    const own = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      headers: { cookie, host: 'localhost:3000', origin: 'http://localhost:3000' },
    });
    expect(own.statusCode, own.body).toBe(200);
    const otherPort = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      headers: { cookie, host: 'localhost:3000', origin: 'http://localhost:5173' },
    });
    expect(otherPort.statusCode).toBe(403);
  });

  it("in production, only PUBLIC_URL's origin: the Host header a client sends proves nothing", async () => {
    const response = await production.app.inject({
      method: 'POST',
      url: '/api/auth/signout',
      headers: { cookie: 'll_session=whatever-it-is', host: 'evil.example', origin: 'http://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    const own = await production.app.inject({
      method: 'POST',
      url: '/api/auth/signout',
      headers: { cookie: 'll_session=whatever-it-is', origin: 'https://bank.example' },
    });
    expect(own.statusCode).toBe(200);
  });

  it('does not affect Bearer requests, requests without the cookie, or reading', async () => {
    const customer = await createCustomer(ctx);
    const cookie = await cookieOf(ctx, customer.email, customer.password);
    // An API client with a Bearer token (a stray cookie beside it is not what signs it in).
    const withBearer = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      headers: { authorization: `Bearer ${customer.token}`, origin: 'https://evil.example', cookie },
    });
    expect(withBearer.statusCode, withBearer.body).toBe(200);
    // No cookie: nothing of the customer's rides on it (a public form; sign-in itself).
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { origin: 'https://evil.example' },
      payload: { email: customer.email, password: customer.password },
    });
    expect(signIn.statusCode).toBe(200);
    const fresh = `ll_session=${signIn.cookies.find((c) => c.name === 'll_session')!.value}`;
    // Reading with the cookie from anywhere: a GET changes nothing (and the browser keeps the answer from the other site).
    expect((await ctx.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: { cookie: fresh, origin: 'https://evil.example' } })).statusCode).toBe(
      200,
    );
  });
});
