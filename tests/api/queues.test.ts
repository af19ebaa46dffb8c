import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/server/mail/mailer';
import { queueMail, SEND_MAIL_TASK } from '../../src/server/mail/outbox';
import { adminToken, bearer, createTestApp, drainJobs, json, signIn, validSignUp, type TestContext } from '../support/app';
import { type SmtpSink, startSmtpSink } from '../support/smtp';

const FROM = 'Test Bank <no-reply@bank.example>';

describe('the back office queue page: GET /api/admin/jobs and POST /api/admin/jobs/:id/retry', () => {
  let ctx: TestContext;
  let smtp: SmtpSink;
  let admin: string;
  let customer: string;
  beforeAll(async () => {
    // The mail server is down from the start (its port refuses), so a mail's job fails for real.
    smtp = await startSmtpSink();
    await smtp.close();
    ctx = await createTestApp({
      env: { SMTP_URL: smtp.url, MAIL_FROM: FROM },
      mailer: createMailer({ smtpUrl: smtp.url, from: FROM, smtpOptions: { ignoreTLS: true } }),
    });
    admin = await adminToken(ctx);
    // A customer who signed up (their code mail cannot be delivered, which does not matter for a 403).
    const body = validSignUp();
    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body })).statusCode).toBe(201);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: validSignUp() })).statusCode).toBe(201);
    customer = await signIn(ctx, body.email, body.password);
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  const list = (token: string, query = '') => ctx.app.inject({ method: 'GET', url: `/api/admin/jobs${query}`, headers: bearer(token) });
  const retry = (token: string, id: string) => ctx.app.inject({ method: 'POST', url: `/api/admin/jobs/${id}/retry`, headers: bearer(token) });

  it('lets only staff in: 401 signed out, 403 for a customer', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/jobs' })).statusCode).toBe(401);
    expect((await list(customer)).statusCode).toBe(403);
    expect((await retry(customer, '1')).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/admin/jobs/1/retry' })).statusCode).toBe(401);
  });

  it('shows waiting jobs and failed ones with the error, and retries a failed job (audited)', async () => {
    const waiting = json(await list(admin, '?state=waiting'));
    expect(waiting.data.items.length).toBeGreaterThanOrEqual(2);
    expect(waiting.data.items.every((job: { task: string; state: string }) => job.task === SEND_MAIL_TASK && job.state === 'waiting')).toBe(true);
    expect(waiting.data.counts.waiting).toBe(waiting.data.total);

    // Tries fail while SMTP is down: a job keeps its error and waits for the next try.
    await drainJobs(ctx);
    const retrying = json(await list(admin, '?state=waiting')).data.items as Array<{ id: string; attempts: number; lastError: string | null }>;
    expect(retrying.every((job) => job.attempts === 1 && /ECONNREFUSED/.test(job.lastError ?? ''))).toBe(true);

    // A mail whose job has one attempt only: it fails for good on its first try.
    await queueMail(ctx.context, { to: 'ops@example.com', subject: 'one try', text: 'only one' });
    const [queued] = (await sql<{ id: string }>`select id::text as id from graphile_worker.jobs order by id desc limit 1`.execute(ctx.database.db)).rows;
    await sql`select graphile_worker.reschedule_jobs(array[${queued!.id}::bigint], max_attempts => 1)`.execute(ctx.database.db);
    await drainJobs(ctx);

    const failed = json(await list(admin, '?state=failed')).data;
    expect(failed.total).toBe(1);
    expect(failed.counts.failed).toBe(1);
    expect(failed.items[0]).toMatchObject({ id: queued!.id, task: SEND_MAIL_TASK, state: 'failed', attempts: 1, maxAttempts: 1 });
    expect(failed.items[0].lastError).toMatch(/ECONNREFUSED/);

    // A job that has not failed for good is not retried from here; ids that name nothing are 404.
    expect((await retry(admin, retrying[0]!.id)).statusCode).toBe(409);
    expect((await retry(admin, '999999999')).statusCode).toBe(404);
    expect((await retry(admin, 'not-a-number')).statusCode).toBe(404);
    expect((await retry(admin, '0')).statusCode).toBe(404);

    const retried = await retry(admin, queued!.id);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(json(retried)).toMatchObject({ data: { id: queued!.id, state: 'waiting', attempts: 0 }, message: 'The job will run again now.' });
    expect(json(await list(admin, '?state=failed')).data.total).toBe(0);
    const audit = await ctx.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'job.retry').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target_type: 'job', target_id: queued!.id, actor_email: ctx.config.adminEmail ?? 'admin@example.com' });
    expect(audit[0]?.before).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED/) });

    // SMTP is back: the retried mail goes out.
    const received: typeof smtp.received = [];
    smtp = await startSmtpSink(smtp.port, received);
    await drainJobs(ctx);
    expect(received.some((mail) => mail.to.includes('ops@example.com'))).toBe(true);
  });

  it('refuses bad queries with 400', async () => {
    expect((await list(admin, '?state=stuck')).statusCode).toBe(400);
    expect((await list(admin, '?pageSize=100000')).statusCode).toBe(400);
    expect((await list(admin, '?page=0')).statusCode).toBe(400);
  });
});
