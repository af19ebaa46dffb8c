import { EventEmitter } from 'node:events';
import {
  Logger as WorkerLogger,
  makeWorkerUtils,
  run,
  runMigrations,
  runOnce,
  type LogLevel,
  type Runner,
  type RunnerOptions,
  type WorkerEvents,
} from 'graphile-worker';
import type pg from 'pg';
import type { AppContext } from '../context';
import { describeDatabaseError, isDatabaseUnavailable } from '../db/errors';
import type { Logger } from '../lib/logger';
import { jobsFailed, jobsQueueDepth } from '../lib/metrics';
import { dueAndRunningJobs, jobCounts } from '../queues/repository';
import { JOB_STATES } from '../../shared/contracts/queues';
import { cronItems, TASKS, taskList } from './registry';

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
  // An empty queue is a 0, not a missing series (an alert on the depth must see it come back down).
  for (const { identifier } of TASKS) for (const state of JOB_STATES) jobsQueueDepth.set({ queue: identifier, state }, 0);
  for (const { task, state, count } of counts) jobsQueueDepth.set({ queue: task, state }, count);
}

const options = (ctx: AppContext, pool: pg.Pool, events: WorkerEvents = countedEvents()): RunnerOptions => ({
  pgPool: pool,
  concurrency: JOB_CONCURRENCY,
  // close-with-grace owns the signals: the runner is stopped from the shutdown (server.ts).
  noHandleSignals: true,
  logger: workerLogger(ctx.log),
  events,
  // A job's outcome is recorded through graphile-worker's batcher (at the next tick). Unbatched, a
  // connection lost at that moment (PostgreSQL restarting) rejects a promise nobody awaits, and
  // that unhandled rejection would stop the whole process. Batched, the runner's pool stops
  // instead (pool:fatalError), and startJobRunner starts another.
  preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
});

/** How long a runner whose pool failed may take to stop before it is given up on. */
const FAILED_RUNNER_GRACE_MS = 5_000;
/** The first wait before starting a runner again; it doubles while starting fails, up to the maximum. */
const RESTART_DELAY_MS = 500;
const RESTART_DELAY_MAX_MS = 30_000;

interface Launched {
  runner: Runner;
  /** Its worker pools' ids: the jobs they hold are released when it ended on its own. */
  poolIds: Set<string>;
  /** Settles when the runner stopped, or failed and had FAILED_RUNNER_GRACE_MS to stop. */
  ended: Promise<unknown>;
}

async function launch(ctx: AppContext, pool: pg.Pool): Promise<Launched> {
  const poolIds = new Set<string>();
  const events = countedEvents();
  // Jobs are locked in the name of the worker pool (graphile-worker 0.17), not of each worker.
  events.on('pool:create', ({ workerPool }) => poolIds.add(workerPool.id));
  const failed = new Promise<unknown>((resolve) => events.once('pool:fatalError', ({ error }) => resolve(error)));
  const runner = await run(options(ctx, pool, events), taskList(ctx), cronItems());
  const stopped = runner.promise.then(
    () => null,
    (error: unknown) => error,
  );
  const ended = Promise.race([stopped, failed.then((error) => new Promise((resolve) => setTimeout(() => resolve(error), FAILED_RUNNER_GRACE_MS).unref()))]);
  return { runner, poolIds, ended };
}

/**
 * Unlocks the jobs (and job queues) that the worker pool of a failed runner still holds, so they run again
 * now rather than after graphile-worker's four-hour lock expiry. Jobs are at-least-once: one whose
 * success could not be recorded runs again, and every task is written to allow that.
 */
async function releaseJobsOf(pool: pg.Pool, poolIds: Set<string>, log: Logger): Promise<void> {
  if (poolIds.size === 0) return;
  const utils = await makeWorkerUtils({ pgPool: pool, logger: workerLogger(log) });
  try {
    await utils.forceUnlockWorkers([...poolIds]);
  } finally {
    await utils.release();
  }
}

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
  let stopping = false;
  let current: Launched | null = await launch(ctx, pool);
  const reason = (error: unknown) => (isDatabaseUnavailable(error) ? { reason: describeDatabaseError(error) } : error ? { err: error } : {});
  const count = () => countQueues(ctx).catch((error: unknown) => ctx.log.warn(reason(error), 'could not count the job queues'));
  void count();
  const timer = setInterval(count, QUEUE_DEPTH_INTERVAL_MS);
  timer.unref();
  const stopRequested = new AbortController();
  // Waits, or less if stop() comes first; either way its listener goes (restarts may be many).
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timeout);
        stopRequested.signal.removeEventListener('abort', done);
        resolve();
      };
      const timeout = setTimeout(done, ms);
      stopRequested.signal.addEventListener('abort', done, { once: true });
    });
  // A runner's pool fails when it could not record a job's outcome (the database went away at that
  // moment): its workers' jobs are released, as a crashed worker's would be, and another runner
  // starts once the database answers. The process keeps serving meanwhile.
  const supervised = (async () => {
    let failures = 0;
    let poolIds = new Set<string>();
    while (!stopping) {
      if (current) {
        const outcome = await current.ended;
        if (stopping) return;
        poolIds = current.poolIds;
        current = null;
        ctx.log.warn(reason(outcome), 'background jobs stopped unexpectedly; starting them again');
        failures = 0;
      }
      await pause(Math.min(RESTART_DELAY_MAX_MS, RESTART_DELAY_MS * 2 ** failures));
      if (stopping) return;
      try {
        await releaseJobsOf(pool, poolIds, ctx.log);
        poolIds = new Set();
        current = await launch(ctx, pool);
        if (stopping) return;
        ctx.log.info('background jobs running again');
      } catch (error) {
        failures += 1;
        ctx.log.warn(reason(error), 'background jobs could not start yet');
      }
    }
  })();
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      stopRequested.abort();
      // The supervisor waits on the runner's end: stop the runner first, then the supervisor (which
      // may have launched one more meanwhile: that one is stopped too).
      const halt = async (launched: Launched) => {
        const stopped = launched.runner.stop().catch((error: unknown) => ctx.log.warn(reason(error), 'background jobs: stopping failed'));
        // A failed runner may never finish stopping: its `ended` gives up on it after a grace period.
        await Promise.race([stopped, launched.ended]);
      };
      const first = current;
      if (first) await halt(first);
      await supervised;
      if (current && current !== first) await halt(current);
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
