import { z } from 'zod';
import { envelope, paginated, ZPage, ZTimestamp } from './common';

// The back office's page of background jobs (issue 12; docs/decisions/010-background-jobs.md).

/**
 * A job's state as the page shows it: waiting (due now, or at its next try after a failure),
 * running (a runner holds it), failed (every attempt used: it waits for staff to retry it).
 */
export const JOB_STATES = ['waiting', 'running', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JOB_STATE_LABELS: Record<JobState, string> = { waiting: 'Waiting', running: 'Running', failed: 'Failed' };

export const JOB_RETRIED_MESSAGE = 'The job will run again now.';
export const JOB_NOT_FOUND = 'Job not found';
export const JOB_NOT_RETRYABLE = 'Only a job that failed can be retried; this one is waiting or running.';

export const ZJobListQuery = ZPage.extend({
  state: z
    .enum([...JOB_STATES, 'all'], { message: 'state must be waiting, running, failed or all' })
    .default('all')
    .describe('Only jobs in this state: waiting (due, or its next try), running, failed (every attempt used); all: every one.'),
});
export type JobListQuery = z.input<typeof ZJobListQuery>;

/** A job's id is graphile-worker's bigint, written in digits; anything else names no job (404). */
export const ZJobIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,17}$/, 'Not a valid id')
    .describe("The job's id, a whole number written in digits."),
});

export const ZJob = z.object({
  id: z.string(),
  /** What it does (the task's name in src/server/jobs/registry.ts). */
  task: z.string().describe("What it does: the task's name."),
  state: z.enum(JOB_STATES).describe('waiting (due, or its next try), running, or failed (every attempt used: waits for staff to retry it).'),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** When it runs (next): a failed try pushes it later, with a growing pause. */
  runAt: ZTimestamp.describe('When it runs (next): a failed try pushes it later, with a growing pause.'),
  /** The last attempt's error, if it failed. */
  lastError: z.string().nullable().describe("The last attempt's error, if it failed."),
  createdAt: ZTimestamp,
});
export type JobDto = z.infer<typeof ZJob>;

export const ZJobCounts = z.object({ waiting: z.number().int(), running: z.number().int(), failed: z.number().int() });
export type JobCounts = z.infer<typeof ZJobCounts>;

export const ZJobList = paginated(ZJob).extend({ counts: ZJobCounts });
export type JobList = z.infer<typeof ZJobList>;

export const ZJobListAnswer = envelope(ZJobList);
export const ZJobAnswer = envelope(ZJob);
