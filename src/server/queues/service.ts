import { JOB_NOT_FOUND, JOB_NOT_RETRYABLE, JOB_RETRIED_MESSAGE, type JobDto, type JobList, type JobState } from '../../shared/contracts/queues';
import { audit } from '../audit/audit';
import type { ActorContext } from '../context';
import type { PageRequest } from '../db/paginate';
import { inTransaction } from '../db/transaction';
import { conflict, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import * as repository from './repository';

// The back office's view of the background jobs (graphile-worker's queue): staff only, and a
// retry is audited like every other staff action.

function toJobDto(row: repository.JobRow): JobDto {
  return {
    id: row.id,
    task: row.task_identifier,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: new Date(row.run_at).toISOString(),
    lastError: row.last_error,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** One page of jobs in a state (or all), with the count in every state. */
export async function jobList(ctx: ActorContext, state: JobState | 'all', page: PageRequest): Promise<JobList> {
  const [{ items, total }, counted] = await Promise.all([repository.jobPage(ctx.db, state, page), repository.jobCounts(ctx.db)]);
  const counts = { waiting: 0, running: 0, failed: 0 };
  for (const { state: each, count } of counted) counts[each] += count;
  return { items: items.map(toJobDto), page: page.page, pageSize: page.pageSize, total, counts };
}

/** Runs a failed job again now, with all its attempts (audited with the error it had). */
export async function retryJob(ctx: ActorContext, id: string): Promise<Outcome<JobDto>> {
  const job = await inTransaction(ctx.db, async (trx) => {
    const before = await repository.findJob(trx, id);
    if (!before) throw notFound(JOB_NOT_FOUND);
    if (before.state !== 'failed' || !(await repository.rescheduleJobNow(trx, id))) throw conflict(JOB_NOT_RETRYABLE);
    const after = await repository.findJob(trx, id);
    if (!after) throw notFound(JOB_NOT_FOUND);
    await audit(trx, ctx.actor, {
      action: 'job.retry',
      targetType: 'job',
      targetId: id,
      before: { task: before.task_identifier, state: before.state, attempts: before.attempts, lastError: before.last_error },
      after: { state: after.state, attempts: after.attempts, runAt: new Date(after.run_at).toISOString() },
    });
    return after;
  });
  return { data: toJobDto(job), message: JOB_RETRIED_MESSAGE };
}
