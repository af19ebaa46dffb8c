import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/server/mail/mailer';
import { createCustomer, createTestApp, json, lastCode, mailbox, signIn, validSignUp, type TestContext } from '../support/app';

// No account enumeration: neither sign-up nor forgot-password tells whether an email has an
// account, by what they answer or by how long they take. (The remaining signal is documented in
// docs/decisions/012-sessions-and-enumeration.md.)

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

const post = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url, payload });
const mailsTo = async (email: string) => (await mailbox(ctx)).filter((mail) => mail.to === email);

describe('sign-up with an email that already has an account', () => {
  it('answers exactly as for a new email (status, body, no user or account number) and opens nothing', async () => {
    const owner = await createCustomer(ctx, { firstName: 'Olive' });
    const fresh = await post('/api/auth/signup', validSignUp());
    const taken = await post(
      '/api/auth/signup',
      validSignUp({ email: owner.email.toUpperCase(), firstName: 'Mallory', password: 'Other-Harbor-77', confirmPassword: 'Other-Harbor-77' }),
    );
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    expect(json(fresh)).toEqual({ data: null, message: 'Check your email: we sent you a verification code. Sign in to enter it.' });
    expect(taken.body).not.toContain(owner.accountNumber);
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());

    const users = await ctx.database.db.selectFrom('users').select(['first_name']).where('email', '=', owner.email).execute();
    expect(users).toEqual([{ first_name: 'Olive' }]);
    // The attacker's password does not sign in; the owner's still does.
    expect((await post('/api/auth/signin', { email: owner.email, password: 'Other-Harbor-77' })).statusCode).toBe(401);
    await expect(signIn(ctx, owner.email, owner.password)).resolves.toBeTruthy();
  });

  it('emails the owner that someone tried, with no code in it, instead of a verification code', async () => {
    const owner = await createCustomer(ctx, { firstName: 'Olive' });
    const codeBefore = await lastCode(ctx, owner.email);
    const before = (await mailsTo(owner.email)).length;
    expect((await post('/api/auth/signup', validSignUp({ email: owner.email }))).statusCode).toBe(201);
    const mails = await mailsTo(owner.email);
    expect(mails).toHaveLength(before + 1);
    expect(mails[0]?.subject).toBe('Ledgerline Bank: someone tried to open an account with your email');
    expect(mails[0]?.text).toMatch(/^Hello Olive,/);
    expect(mails[0]?.text).toContain('/forgot-password');
    expect(mails[0]?.text).not.toMatch(/\b\d{6}\b/);
    expect(await lastCode(ctx, owner.email)).toBe(codeBefore);
  });

  it('still refuses a bad form first, the same way for both', async () => {
    const owner = await createCustomer(ctx);
    const fresh = await post('/api/auth/signup', validSignUp({ password: 'password123', confirmPassword: 'password123' }));
    const taken = await post('/api/auth/signup', validSignUp({ email: owner.email, password: 'password123', confirmPassword: 'password123' }));
    expect(fresh.statusCode).toBe(400);
    expect(taken.body).toBe(fresh.body);
  });

  it('two sign-ups with one new email at the same moment open one account and answer both alike', async () => {
    const body = validSignUp();
    const [first, second] = await Promise.all([post('/api/auth/signup', body), post('/api/auth/signup', { ...body, firstName: 'Twin' })]);
    expect(first.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    const rows = await ctx.database.db.selectFrom('users').select('id').where('email', '=', body.email).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('forgot-password', () => {
  it('answers identically for a registered, an unknown and a disabled email, and mails only the registered one', async () => {
    const owner = await createCustomer(ctx);
    const disabled = await createCustomer(ctx);
    await ctx.database.db.updateTable('users').set({ is_account_disabled: true }).where('id', '=', disabled.userId).execute();
    const unknown = `nobody.${Date.now()}@example.com`;
    const answers = [];
    for (const email of [owner.email, unknown, disabled.email]) answers.push(await post('/api/auth/forgot-password', { email }));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(answers[0]!.body);
    }
    expect(json(answers[0]!).message).toBe('If an account exists for this email, we have sent a link to reset the password. It is valid for 30 minutes.');
    expect((await mailsTo(owner.email)).some((mail) => /reset your password/.test(mail.subject))).toBe(true);
    expect(await mailsTo(unknown)).toEqual([]);
    expect((await mailsTo(disabled.email)).some((mail) => /reset your password/.test(mail.subject))).toBe(false);
    const resets = await ctx.database.db.selectFrom('password_resets').select('user_id').where('user_id', 'in', [owner.userId, disabled.userId]).execute();
    expect(resets.map((row) => row.user_id)).toEqual([owner.userId]);
  });

  it('only the newest link works', async () => {
    const owner = await createCustomer(ctx);
    await post('/api/auth/forgot-password', { email: owner.email });
    await post('/api/auth/forgot-password', { email: owner.email });
    const links = (await mailsTo(owner.email))
      .filter((mail) => /reset your password/.test(mail.subject))
      .map((mail) => mail.text.match(/token=([A-Za-z0-9_-]+)/)?.[1]);
    expect(links).toHaveLength(2);
    const [newest, older] = links;
    const reset = (token: string | undefined) =>
      post('/api/auth/reset-password', { token, password: 'Copper-Lantern-93', confirmPassword: 'Copper-Lantern-93' });
    expect((await reset(older)).statusCode).toBe(400);
    expect((await reset(newest)).statusCode).toBe(200);
  });
});

// With a mail server that takes its time, a request that waited for it would take measurably
// longer for a registered email: the answer must not wait for mail.
describe('forgot-password timing with a slow mail server', () => {
  const SMTP_DELAY_MS = 400;
  let smtp: SMTPServer;
  let slow: TestContext;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        stream.on('data', () => undefined);
        stream.on('end', () => setTimeout(() => callback(), SMTP_DELAY_MS));
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`;
    slow = await createTestApp({
      env: { SMTP_URL: smtpUrl },
      mailer: createMailer({ smtpUrl, from: 'Test Bank <no-reply@bank.example>', smtpOptions: { ignoreTLS: true } }),
    });
  });
  afterAll(async () => {
    await slow?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  const timed = async (email: string) => {
    const started = performance.now();
    const response = await slow.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
    expect(response.statusCode).toBe(200);
    return performance.now() - started;
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  it('takes about as long for a registered email as for an unknown one', async () => {
    const registered: number[] = [];
    const unknown: number[] = [];
    for (let round = 0; round < 7; round += 1) {
      registered.push(await timed('alex.morgan@example.com'));
      unknown.push(await timed(`nobody.${round}@example.com`));
    }
    // Waiting for the mail server would add SMTP_DELAY_MS to every registered request.
    expect(median(registered) - median(unknown)).toBeLessThan(SMTP_DELAY_MS / 2);
  });
});
