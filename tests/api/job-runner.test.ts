import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobRunner, type JobRunner } from '../../src/server/jobs/runner';
import { queueMail } from '../../src/server/mail/outbox';
import { createTestApp, type TestContext } from '../support/app';

// The job runner a server starts, while PostgreSQL drops its connections again and again (as a
// restart or a failover does): the process never dies of it (an unhandled rejection would fail
// this file), and every job queued meanwhile runs once PostgreSQL is steady again.
describe('the background job runner under lost database connections', () => {
  let ctx: TestContext;
  let runner: JobRunner | undefined;
  let killer: pg.Client;
  beforeAll(async () => {
    ctx = await createTestApp({ seedDemo: false });
    killer = new pg.Client({ connectionString: ctx.databaseUrl });
    await killer.connect();
  });
  afterAll(async () => {
    await runner?.stop();
    await killer?.end();
    await ctx?.close();
  });

  const outstandingJobs = async () => Number((await sql<{ n: string }>`select count(*) as n from graphile_worker.jobs`.execute(ctx.database.db)).rows[0]?.n);
  const terminateOthers = () =>
    killer.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');

  it('keeps running jobs through terminated connections and delivers every mail queued meanwhile', async () => {
    runner = await startJobRunner(ctx.context, ctx.database.pool);
    const queued: string[] = [];
    const stormEnds = Date.now() + 4000;
    for (let round = 0; Date.now() < stormEnds; round++) {
      const subject = `storm ${round}`;
      // A queueing whose connection was cut is refused as a whole (nothing half-written); it is not counted.
      await queueMail(ctx.context, { to: 'ops@example.com', subject, text: 'while connections drop' }).then(
        () => queued.push(subject),
        () => undefined,
      );
      if (round % 3 === 2) await terminateOthers();
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    expect(queued.length).toBeGreaterThan(20);

    // Steady again. No job is left locked by a runner that failed (those are released when the
    // next one starts); a try that failed in the storm waits for its retry (graphile-worker's
    // backoff, up to a minute after a few failures): bring those tries forward to now.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await sql`select graphile_worker.reschedule_jobs(array(select id from graphile_worker.jobs where locked_at is null), run_at => now())`.execute(
      ctx.database.db,
    );
    // The runner (restarted if it had to stop) works the queue down to nothing.
    const deadline = Date.now() + 30_000;
    while ((await outstandingJobs()) !== 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const left = await sql`select id, task_identifier, attempts, locked_by, locked_at, run_at, last_error from graphile_worker.jobs`.execute(ctx.database.db);
    expect(left.rows).toEqual([]);
    const sent = await sql<{ subject: string; n: string }>`
      select subject, count(*) as n from mail_outbox where sent_at is not null group by subject`.execute(ctx.database.db);
    const sentSubjects = new Map(sent.rows.map((row) => [row.subject, Number(row.n)]));
    for (const subject of queued) expect(sentSubjects.get(subject), subject).toBe(1);

    // And it still takes new work at once.
    await queueMail(ctx.context, { to: 'ops@example.com', subject: 'after the storm', text: 'calm' });
    const calm = Date.now() + 20_000;
    while ((await outstandingJobs()) !== 0 && Date.now() < calm) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await outstandingJobs()).toBe(0);
  }, 90_000);
});
