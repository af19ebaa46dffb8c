import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, lastCode, validSignUp, type TestContext } from '../support/app';

// The request log must never carry a password, a code or a token, whatever the call.
describe('request logging', () => {
  let ctx: TestContext;
  let logged = '';
  let app: FastifyInstance;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        logged += chunk.toString();
        callback();
      },
    });
    ctx = await createTestApp({ logStream: stream });
    app = ctx.app;
  });
  afterAll(async () => ctx?.close());

  it('logs requests without passwords, codes, tokens or query strings', async () => {
    const body = validSignUp({ password: 'Secret-Lantern-4821', confirmPassword: 'Secret-Lantern-4821' });
    expect((await app.inject({ method: 'POST', url: '/api/auth/signup', payload: body })).statusCode).toBe(201);
    const signIn = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: body.email, password: body.password } });
    const token = signIn.json().data.token as string;
    const code = await lastCode(ctx, body.email);
    await app.inject({ method: 'POST', url: '/api/auth/verify-email', headers: { authorization: `Bearer ${token}` }, payload: { otp: code } });
    await app.inject({ method: 'GET', url: `/api/user/me?token=${token}`, headers: { cookie: `ll_session=${token}` } });
    await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token: 'reset-token-abcdefghijkl', password: 'Other-Secret-9911' } });

    expect(logged).toContain('/api/auth/signin');
    expect(logged).toContain('incoming request');
    for (const secret of ['Secret-Lantern-4821', 'Other-Secret-9911', token, code, 'reset-token-abcdefghijkl']) {
      expect(logged, `log contains ${secret.slice(0, 6)}...`).not.toContain(secret);
    }
  });
});
