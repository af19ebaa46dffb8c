import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/server/mail/mailer';
import { createTestApp, json, validSignUp, type TestContext, mailbox } from '../support/app';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

describe('mail over real SMTP', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let port = 0;
  let ctx: TestContext;

  beforeAll(async () => {
    // smtp-server's bundled certificate has expired: plain SMTP on loopback for the test.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as { port: number }).port;
    const smtpUrl = `smtp://127.0.0.1:${port}`;
    ctx = await createTestApp({
      env: { SMTP_URL: smtpUrl, MAIL_FROM: 'Test Bank <no-reply@bank.example>' },
      mailer: createMailer({ smtpUrl, from: 'Test Bank <no-reply@bank.example>', smtpOptions: { ignoreTLS: true } }),
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the sign-up code through the SMTP server, not the outbox', async () => {
    const body = validSignUp();
    const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body });
    expect(response.statusCode).toBe(201);
    for (let attempt = 0; attempt < 50 && !received.some((mail) => mail.to.includes(body.email)); attempt += 1) await new Promise((r) => setTimeout(r, 50));
    const mail = received.find((entry) => entry.to.includes(body.email));
    expect(mail?.from).toBe('no-reply@bank.example');
    expect(mail?.raw).toMatch(/verification code is \d{6}/);
    expect((await mailbox(ctx))).toEqual([]);
  });

  // The mailbox shows mail that was not sent: with SMTP configured there is none, so no page either.
  it('serves /dev/mailbox only in demo mode without SMTP', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/dev/mailbox?format=json' })).statusCode).toBe(404);
    const demo = await createTestApp({ seedDemo: false });
    const notDemo = await createTestApp({ seedDemo: false, env: { DEMO_MODE: 'false' } });
    const production = await createTestApp({
      seedDemo: false,
      env: { NODE_ENV: 'production', DEMO_MODE: 'false', SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'https://bank.example' },
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
