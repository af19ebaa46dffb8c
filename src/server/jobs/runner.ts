import { EventEmitter } from 'node:events';
import { Logger as WorkerLogger, run, runMigrations, runOnce, type LogLevel, type RunnerOptions, type WorkerEvents } from 'graphile-worker';
import type pg from 'pg';
import type { AppContext } from '../context';
import { describeDatabaseError, isDatabaseUnavailable } from '../db/errors';
import type { Logger } from '../lib/logger';
import { jobsFailed, jobsQueueDepth } from '../lib/metrics';
import { dueAndRunningJobs, jobCounts } from '../queues/repository';
import { cronItems, taskList } from './registry';

/** The advisory lock under which one process at a time installs or upgrades graphile-worker's schema. */
const JOB_SCHEMA_LOCK_KEY = 4_812_200;
/** Jobs one runner works on at once: mail and purges are I/O, a few suffice. */
export const JOB_CONCURRENCY = 4;
/** How often a runner counts the queues for jobs_queue_depth. */
const QUEUE_DEPTH_INTERVAL_MS = 15_000;

/**
 * Installs or upgrades graphile-worker's schema (graphile_worker) once, whatever the number of
 * processes starting together: each takes a PostgreSQL advisory lock in turn, and the later ones
 * find it done. Runs after the bank's own migrations, at every start.
 */
export async function installJobSchema(pool: pg.Pool, log: Logger): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [JOB_SCHEMA_LOCK_KEY]);
    try {
      await runMigrations({ pgPool: pool, logger: workerLogger(log) });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [JOB_SCHEMA_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/**
 * graphile-worker's log lines in the bank's log: its errors and warnings as such, the rest as
 * debug. The database away (restarting, failing over: its listener retries) is one warning line
 * without a stack, as everywhere else in the bank; any other error keeps its stack.
 */
function workerLogger(log: Logger): WorkerLogger {
  return new WorkerLogger((scope) => (level: LogLevel, message: string, meta?: Record<string, unknown>) => {
    const error = meta?.error;
    if (error !== undefined && isDatabaseUnavailable(error)) {
      log.warn({ reason: describeDatabaseError(error) }, `background jobs: ${message.split('\n')[0]}`);
      return;
    }
    const details = { jobs: scope, ...(error !== undefined ? { err: error } : {}) };
    if (level === 'error') log.error(details, message);
    else if (level === 'warning') log.warn(details, message);
    else log.debug(details, message);
  });
}

/** Every failed run counts in jobs_failed_total, by task (a retry may still succeed). */
function countedEvents(): WorkerEvents {
  const events = new EventEmitter() as WorkerEvents;
  events.on('job:error', ({ job }) => jobsFailed.inc({ queue: job.task_identifier }));
  return events;
}

/** Sets jobs_queue_depth from the database (every task and state, those at zero included). */
export async function countQueues(ctx: Pick<AppContext, 'db'>): Promise<void> {
  const counts = await jobCounts(ctx.db);
  jobsQueueDepth.reset();
  for (const { task, state, count } of counts) jobsQueueDepth.set({ queue: task, state }, count);
}

const options = (ctx: AppContext, pool: pg.Pool): RunnerOptions => ({
  pgPool: pool,
  concurrency: JOB_CONCURRENCY,
  // close-with-grace owns the signals: the runner is stopped from the shutdown (server.ts).
  noHandleSignals: true,
  logger: workerLogger(ctx.log),
  events: countedEvents(),
});

export interface JobRunner {
  /** Stops taking jobs and waits for the ones running (graphile-worker's graceful stop). */
  stop(): Promise<void>;
}

/**
 * Runs the background jobs of the registry in this process until stopped: woken at once by a new
 * job (LISTEN/NOTIFY), polling as a fallback, and running the schedules. Any number of runners
 * share the queue (graphile-worker locks each job with SKIP LOCKED).
 */
export async function startJobRunner(ctx: AppContext, pool: pg.Pool): Promise<JobRunner> {
  const runner = await run(options(ctx, pool), taskList(ctx), cronItems());
  const count = () =>
    countQueues(ctx).catch((error: unknown) =>
      ctx.log.warn(isDatabaseUnavailable(error) ? { reason: describeDatabaseError(error) } : { err: error }, 'could not count the job queues'),
    );
  void count();
  const timer = setInterval(count, QUEUE_DEPTH_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await runner.stop();
    },
  };
}

/** How long a drain waits for jobs another runner holds before it gives up on them. */
const DRAIN_WAIT_MS = 10_000;
const DRAIN_PAUSE_MS = 10;

/**
 * Runs every job that is due now until none is left, and waits for the ones another runner holds
 * (a concurrent drain) to finish, then returns: afterwards every due job has run once (tests,
 * and a one-off drain). Jobs waiting for a later try stay waiting.
 */
export async function runDueJobs(ctx: AppContext, pool: pg.Pool): Promise<void> {
  // One options object per context: graphile-worker compiles it once and caches it by identity.
  let drainOptions = drainOptionsByContext.get(ctx);
  if (!drainOptions) {
    drainOptions = options(ctx, pool);
    drainOptionsByContext.set(ctx, drainOptions);
  }
  const deadline = Date.now() + DRAIN_WAIT_MS;
  for (;;) {
    const { due, running } = await dueAndRunningJobs(ctx.db);
    if (due) await runOnce(drainOptions, taskList(ctx));
    else if (!running || Date.now() > deadline) return;
    else await new Promise((resolve) => setTimeout(resolve, DRAIN_PAUSE_MS));
  }
}

const drainOptionsByContext = new WeakMap<AppContext, RunnerOptions>();
