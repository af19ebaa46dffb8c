import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestPasswordReset } from '../../src/server/auth/service';
import { withDb } from '../../src/server/context';
import { inTransaction } from '../../src/server/db/transaction';
import { jobsFailed } from '../../src/server/lib/metrics';
import { createMailer } from '../../src/server/mail/mailer';
import { SEND_MAIL_TASK } from '../../src/server/mail/outbox';
import { makeWaitingJobsDue } from '../../src/server/queues/repository';
import { DEMO_CUSTOMER_PASSWORD, DEMO_CUSTOMERS } from '../../src/server/seed';
import { bearer, createTestApp, drainJobs, json, mailbox, signIn, validSignUp, type TestContext } from '../support/app';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../support/smtp';

const FROM = 'Test Bank <no-reply@bank.example>';
const [alex, jamie] = DEMO_CUSTOMERS;

/** A test clock: the system's, moved forward by `offsetMs`. */
const movableClock = () => {
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  return clock;
};

/** An app whose mail goes to an SMTP server on `port` (which may be down). */
const appMailingTo = (port: number, clock?: ReturnType<typeof movableClock>) =>
  createTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: FROM },
    mailer: createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM, smtpOptions: { ignoreTLS: true, connectionTimeout: 2000 } }),
    clock,
  });

/** A port nothing listens on: an SMTP server that was there and is gone. */
async function downPort(): Promise<number> {
  const sink = await startSmtpSink();
  await sink.close();
  return sink.port;
}

const outboxRows = (ctx: TestContext) => ctx.database.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();
const failures = async () => (await jobsFailed.get()).values.find((value) => value.labels.queue === SEND_MAIL_TASK)?.value ?? 0;

describe('the mail outbox through an SMTP outage', () => {
  let ctx: TestContext;
  let smtp: SmtpSink | undefined;
  let port = 0;
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  beforeAll(async () => {
    port = await downPort();
    ctx = await appMailingTo(port);
  });

  it('keeps every mail while SMTP is down, delivers each still valid one when it is back, and none twice', async () => {
    // SMTP is down: the customer signs up and another one starts a transfer; neither request waits for SMTP.
    const body = validSignUp();
    const signUp = await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body });
    expect(signUp.statusCode).toBe(201);
    const sender = await signIn(ctx, alex.email, DEMO_CUSTOMER_PASSWORD);
    const payee = json(
      await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(await signIn(ctx, jamie.email, DEMO_CUSTOMER_PASSWORD)) }),
    ).data;
    const transfer = {
      from: json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(sender) })).data.account.number,
      amount: 42.5,
      accountType: 'checking',
      accountNumber: payee.account.number,
      to: 'Jamie Lee',
      description: 'Concert tickets',
    };
    const post = (payload: object, key: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/transaction/transfer', headers: { ...bearer(sender), 'idempotency-key': key }, payload });
    const step1 = await post(transfer, 'outage-code');
    expect(step1.statusCode, step1.body).toBe(200);

    // Every delivery fails for real (connection refused): the mail stays pending, with the error, and is counted.
    const failedBefore = await failures();
    await drainJobs(ctx);
    let rows = await outboxRows(ctx);
    expect(rows.map((row) => row.to_address).sort()).toEqual([alex.email, body.email].sort());
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
      expect(row.last_error).toMatch(/ECONNREFUSED/);
    }
    expect(await failures()).toBe(failedBefore + 2);
    const waiting = await ctx.database.db.selectFrom('mail_outbox').select('id').execute();
    expect(waiting).toHaveLength(2);

    // SMTP is back on the same port; the retries (made due now instead of after their backoff) deliver everything once.
    const received: ReceivedMail[] = [];
    smtp = await startSmtpSink(port, received);
    expect(await makeWaitingJobsDue(ctx.database.db)).toBe(2);
    await drainJobs(ctx);
    rows = await outboxRows(ctx);
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 2 && row.last_error === null)).toBe(true);
    expect(received).toHaveLength(2);
    expect(received.map((mail) => mail.messageId).sort()).toEqual(rows.map((row) => row.message_id).sort());

    // Draining again (a runner restarting, a job run twice) sends nothing more.
    await makeWaitingJobsDue(ctx.database.db);
    await drainJobs(ctx);
    expect(received).toHaveLength(2);

    // The delayed codes still work: the transfer goes through with the code that arrived late.
    const codeMail = received.find((mail) => mail.to.includes(alex.email));
    const code = codeMail?.raw.match(/IMS code is (\d{6})/)?.[1];
    expect(code).toBeDefined();
    const done = await post({ ...transfer, paymentPin: code }, 'outage-transfer');
    expect(done.statusCode, done.body).toBe(201);
    expect(received.find((mail) => mail.to.includes(body.email))?.raw).toMatch(/verification code is \d{6}/);
  });
});

describe('a code that expires while SMTP is down', () => {
  const clock = movableClock();
  let ctx: TestContext;
  let smtp: SmtpSink | undefined;
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('is dropped, not sent late; mail without a code still goes out', async () => {
    const port = await downPort();
    ctx = await appMailingTo(port, clock);
    const body = validSignUp();
    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body })).statusCode).toBe(201);
    // A notice that carries no code: the password-changed mail.
    const customer = await signIn(ctx, alex.email, DEMO_CUSTOMER_PASSWORD);
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: bearer(customer),
      payload: { oldPassword: DEMO_CUSTOMER_PASSWORD, newPassword: 'Another-Harbor-93' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await drainJobs(ctx);
    const [codeMail] = await ctx.database.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', body.email).execute();
    expect(codeMail?.expires_at).toBeInstanceOf(Date);
    expect(codeMail?.status).toBe('pending');

    // SMTP comes back after the code's 10 minutes.
    clock.offsetMs = 11 * 60_000;
    const received: ReceivedMail[] = [];
    smtp = await startSmtpSink(port, received);
    await makeWaitingJobsDue(ctx.database.db);
    await drainJobs(ctx);
    expect(received.map((mail) => mail.to[0])).toEqual([alex.email]);
    expect(received[0]?.raw).toMatch(/password was (just )?changed/);
    const dropped = await ctx.database.db.selectFrom('mail_outbox').selectAll().where('id', '=', codeMail!.id).executeTakeFirstOrThrow();
    expect(dropped).toMatchObject({ status: 'expired', sent_at: null, body: '' });
  });
});

describe('mail commits with the change that causes it', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx?.close());

  it('a change that rolls back queues and sends nothing; the same change committed sends its mail', async () => {
    const jobs = async () => (await ctx.database.pool.query('select count(*)::int as count from graphile_worker.jobs')).rows[0].count as number;
    const service = { ...ctx.context, actor: null };
    await expect(
      inTransaction(ctx.database.db, async (trx) => {
        await requestPasswordReset(withDb(service, trx), alex.email);
        throw new Error('the change failed after the mail was queued');
      }),
    ).rejects.toThrow('the change failed');
    expect(await outboxRows(ctx)).toEqual([]);
    expect(await jobs()).toBe(0);
    expect(await mailbox(ctx)).toEqual([]);

    await inTransaction(ctx.database.db, (trx) => requestPasswordReset(withDb(service, trx), alex.email));
    expect(await jobs()).toBe(1);
    const delivered = await mailbox(ctx);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ to: alex.email, subject: expect.stringMatching(/reset your password/) });
    expect(await jobs()).toBe(0);
  });
});
