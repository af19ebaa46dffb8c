import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/server/mail/mailer';
import { createTestApp, drainJobs, json, testSigningKeyFile, validSignUp, type TestContext } from '../support/app';
import { type SmtpSink, startSmtpSink } from '../support/smtp';

describe('mail over real SMTP', () => {
  let smtp: SmtpSink;
  let ctx: TestContext;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createTestApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Test Bank <no-reply@bank.example>' },
      mailer: createMailer({ smtpUrl: smtp.url, from: 'Test Bank <no-reply@bank.example>', smtpOptions: { ignoreTLS: true } }),
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('delivers the sign-up code through the SMTP server, with the Message-ID its outbox row keeps', async () => {
    const body = validSignUp();
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body });
    expect(response.statusCode).toBe(201);
    await drainJobs(ctx);
    const mail = smtp.received.find((entry) => entry.to.includes(body.email));
    expect(mail?.from).toBe('no-reply@bank.example');
    expect(mail?.raw).toMatch(/verification code is \d{6}/);
    const row = await ctx.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', body.email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(mail?.messageId).toBe(row.message_id);
    expect(row.message_id).toMatch(/^<[0-9a-f-]{36}@bank\.example>$/);
    // The code left the database with the mail: the row keeps who, what and when, not the body.
    expect(row.body).toBe('');
  });

  // The mailbox shows mail that was not sent: with SMTP configured there is none, so no page either.
  it('serves /dev/mailbox only in demo mode without SMTP', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/dev/mailbox?format=json' })).statusCode).toBe(404);
    const demo = await createTestApp({ seedDemo: false });
    const notDemo = await createTestApp({ seedDemo: false, env: { DEMO_MODE: 'false' } });
    const production = await createTestApp({
      seedDemo: false,
      env: {
        NODE_ENV: 'production',
        DEMO_MODE: 'false',
        SMTP_URL: 'smtp://127.0.0.1:1',
        PUBLIC_URL: 'https://bank.example',
        BANK_SIGNING_KEY_FILE: testSigningKeyFile(),
      },
    });
    try {
      expect((await demo.app.inject({ method: 'GET', url: '/dev/mailbox?format=json' })).statusCode).toBe(200);
      expect((await notDemo.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode).toBe(404);
      expect((await production.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode).toBe(404);
    } finally {
      await Promise.all([demo.close(), notDemo.close(), production.close()]);
    }
  });
});

describe('rate limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ rateLimits: true });
  });
  afterAll(async () => ctx?.close());

  it('limits sign-in attempts from one address to 20 a minute', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 22; attempt += 1) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: `rate${attempt}@example.com`, password: 'whatever-123' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
    const limited = await ctx.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: 'x@example.com', password: 'y' } });
    expect(json(limited).message).toBe('Too many requests. Please wait a moment and try again.');
  });

  it('limits sign-up to 10 a minute', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      statuses.push((await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: {} })).statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
