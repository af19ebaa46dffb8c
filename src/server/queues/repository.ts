import { sql } from 'kysely';
import type { JobState } from '../../shared/contracts/queues';
import type { DB } from '../db/database';
import type { PageRequest } from '../db/paginate';

// Every query of graphile-worker's tables (schema graphile_worker), through its public SQL API:
// add_job, reschedule_jobs and the `jobs` view (ADR 010). Nothing else in the bank names them.

export interface JobSpec {
  /** At most one queued job per key: a second add with the same key replaces the waiting one. */
  jobKey?: string;
  maxAttempts?: number;
  runAt?: Date;
  /** Jobs of one named queue run one after another, across every process (graphile-worker's queues). */
  queueName?: string;
}

/**
 * Queues a job on the given database handle: inside a transaction it commits (and is seen by a
 * runner) only with the caller's change, and a rollback leaves no job. A runner is woken at
 * once (graphile-worker NOTIFYs on insert, delivered at commit).
 */
export async function addJob(db: DB, task: string, payload: Record<string, unknown>, spec: JobSpec = {}): Promise<void> {
  await sql`select graphile_worker.add_job(
      ${task},
      ${JSON.stringify(payload)}::json,
      run_at => ${spec.runAt ?? null}::timestamptz,
      max_attempts => ${spec.maxAttempts ?? null}::int,
      job_key => ${spec.jobKey ?? null}::text,
      queue_name => ${spec.queueName ?? null}::text
    )`.execute(db);
}

/** How a row of the jobs view reads as a state (the order of the cases matters: a locked job is running). */
const stateOf = sql<JobState>`case
    when locked_at is not null then 'running'
    when attempts >= max_attempts then 'failed'
    else 'waiting' end`;

export interface JobRow {
  id: string;
  task_identifier: string;
  state: JobState;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  last_error: string | null;
  created_at: Date;
}

/** One page of jobs in a state (or all), those due first, and the count in each state. */
export async function jobPage(db: DB, state: JobState | 'all', page: PageRequest): Promise<{ items: JobRow[]; total: number }> {
  const result = await sql<JobRow & { total_count: string }>`
    select * from (
      select id::text as id, task_identifier, ${stateOf} as state, attempts, max_attempts, run_at, last_error, created_at
      from graphile_worker.jobs
    ) as listed
    where ${state === 'all' ? sql`true` : sql`state = ${state}`}
    order by run_at, id
    limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`.execute(db);
  const total = await sql<{ total: number }>`
    select count(*)::int as total from graphile_worker.jobs
    where ${state === 'all' ? sql`true` : sql`${stateOf} = ${state}`}`.execute(db);
  return { items: result.rows, total: total.rows[0]?.total ?? 0 };
}

/** Jobs by task and state, for the page's counts and the jobs_queue_depth metric. */
export async function jobCounts(db: DB): Promise<Array<{ task: string; state: JobState; count: number }>> {
  const result = await sql<{ task: string; state: JobState; count: number }>`
    select task_identifier as task, ${stateOf} as state, count(*)::int as count
    from graphile_worker.jobs group by 1, 2`.execute(db);
  return result.rows;
}

export async function findJob(db: DB, id: string): Promise<JobRow | undefined> {
  const result = await sql<JobRow>`
    select id::text as id, task_identifier, ${stateOf} as state, attempts, max_attempts, run_at, last_error, created_at
    from graphile_worker.jobs where id = ${id}::bigint`.execute(db);
  return result.rows[0];
}

/**
 * Runs a job again now with all its attempts: its error stays on the row until the next try.
 * A job a runner holds is left alone (reschedule_jobs skips locked jobs): answers whether it moved.
 */
export async function rescheduleJobNow(db: DB, id: string): Promise<boolean> {
  const result = await sql`select id from graphile_worker.reschedule_jobs(array[${id}::bigint], run_at => now(), attempts => 0)`.execute(db);
  return result.rows.length > 0;
}

/** Whether any job is due now and free to run (a runner would take it), and whether any is running. */
export async function dueAndRunningJobs(db: DB): Promise<{ due: boolean; running: boolean }> {
  const result = await sql<{ due: boolean; running: boolean }>`
    select
      exists(select 1 from graphile_worker.jobs where run_at <= now() and locked_at is null and attempts < max_attempts) as due,
      exists(select 1 from graphile_worker.jobs where locked_at is not null) as running`.execute(db);
  return result.rows[0] ?? { due: false, running: false };
}

/** Makes every waiting job due now (tests, and an operator's "try again now" after an outage). */
export async function makeWaitingJobsDue(db: DB): Promise<number> {
  const result = await sql`
    select id from graphile_worker.reschedule_jobs(
      array(select id from graphile_worker.jobs where locked_at is null and attempts < max_attempts and run_at > now()),
      run_at => now())`.execute(db);
  return result.rows.length;
}
