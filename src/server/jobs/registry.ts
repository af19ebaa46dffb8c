import { parseCronItems, type ParsedCronItem, type TaskList } from 'graphile-worker';
import { z } from 'zod';
import { APPROVALS_EXPIRE_TASK, expireApprovals } from '../approvals/service';
import { ANCHOR_DAILY_TASK, runDailyAnchor } from '../anchors/service';
import type { AppContext } from '../context';
import { deliverMail, SEND_MAIL_TASK } from '../mail/outbox';
import { LEDGER_NOTIFY_QUEUE, LEDGER_NOTIFY_TASK, notifyLedgerEntries } from '../notifications/ledger-notifier';
import { MAKE_STATEMENT_TASK, makeStatementJob, queueMonthlyStatements, STATEMENTS_MONTHLY_TASK } from '../statements/service';
import { runStandingOrders, STANDING_ORDERS_TASK } from '../standing-orders/job';
import { notifyPayer, PAYMENT_REQUEST_NOTIFY_TASK } from '../payment-requests/service';
import { CLOSE_DAYS_TASK, closeEndedDays } from '../reports/service';
import { completeDueRecoveries, RECOVERY_DUE_TASK } from '../recovery/service';
import { PURGE_TASK, purgeExpired } from './purge';

/**
 * THE list of background tasks. A task is a function of the bank's context and its payload
 * (checked here, so a malformed payload fails the job with a clear error instead of doing
 * something else); `schedule` (cron syntax, UTC) runs it on a timetable, once across every
 * runner. To add one (standing orders, statements, notifications): write the function next to
 * the domain it serves, add an entry here, and queue it with `addJob` (queues/repository.ts) in
 * the transaction that causes it.
 */
interface TaskDefinition {
  identifier: string;
  run(ctx: AppContext, payload: unknown): Promise<unknown>;
  schedule?: string;
  /** The named queue its scheduled runs join, so they run one at a time with the queued ones. */
  queueName?: string;
}

const ZSendMailPayload = z.object({ outboxId: z.number().int().positive() });
const ZMakeStatementPayload = z.object({ accountId: z.uuid(), month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/) });

export const TASKS: readonly TaskDefinition[] = [
  { identifier: SEND_MAIL_TASK, run: (ctx, payload) => deliverMail(ctx, ZSendMailPayload.parse(payload).outboxId) },
  // Hourly, at minute 17 (away from the hour, when other schedules tend to run).
  { identifier: PURGE_TASK, run: (ctx) => purgeExpired(ctx), schedule: '17 * * * *' },
  // Every hour at minute 7; it anchors once per bank day (BANK_TIMEZONE), so the day's anchor is
  // written soon after the bank's midnight, and a missed hour (every runner down) is made up at the next.
  { identifier: ANCHOR_DAILY_TASK, run: (ctx) => runDailyAnchor(ctx), schedule: '7 * * * *' },
  // Woken by the sealer after it chains entries (within about a second of a posting); every minute
  // as well, so an entry whose wake was lost (a process stopped between sealing and queueing) waits
  // a minute at most. A run with nothing new reads one row.
  { identifier: LEDGER_NOTIFY_TASK, run: (ctx) => notifyLedgerEntries(ctx), schedule: '* * * * *', queueName: LEDGER_NOTIFY_QUEUE },
  // Hourly (cron is UTC; the task itself asks the bank's calendar which months have closed), so the
  // 1st in BANK_TIMEZONE is within the hour whatever the zone, and missed months are caught up.
  { identifier: STATEMENTS_MONTHLY_TASK, run: (ctx) => queueMonthlyStatements(ctx), schedule: '7 * * * *' },
  { identifier: MAKE_STATEMENT_TASK, run: (ctx, payload) => makeStatementJob(ctx, ZMakeStatementPayload.parse(payload)) },
  // Every 5 minutes (the task asks the bank's calendar what is due, BANK_TIMEZONE): a day's payments
  // go out within minutes of the bank's midnight, a retry within minutes of its time, and a run
  // missed while no runner was up is caught up by the next (ADR 019).
  { identifier: STANDING_ORDERS_TASK, run: (ctx) => runStandingOrders(ctx), schedule: '*/5 * * * *' },
  // Queued with every payment request, whether or not it names a customer (ADR 020).
  { identifier: PAYMENT_REQUEST_NOTIFY_TASK, run: (ctx, payload) => notifyPayer(ctx, z.object({ requestId: z.uuid() }).parse(payload).requestId) },
  // End of day: every 15 minutes (cron runs in UTC; a bank day may end on any quarter hour of it),
  // closing each bank day (BANK_TIMEZONE) that has ended, and every one missed while nothing ran.
  { identifier: CLOSE_DAYS_TASK, run: (ctx) => closeEndedDays(ctx), schedule: '*/15 * * * *' },
  // Every 5 minutes: support recoveries (ADR 025) whose 24 hours have passed by the context's clock
  // take effect; one missed while no runner was up is completed by the next run.
  { identifier: RECOVERY_DUE_TASK, run: (ctx) => completeDueRecoveries(ctx), schedule: '*/5 * * * *' },
  // Four eyes (ADR 023): requests nobody decided within 7 days expire. Every 10 minutes, audited;
  // the queue also reads a request past its time as expired before the sweep marks it.
  { identifier: APPROVALS_EXPIRE_TASK, run: (ctx) => expireApprovals(ctx), schedule: '*/10 * * * *' },
];

/** The tasks as graphile-worker runs them, each given the context. */
export function taskList(ctx: AppContext): TaskList {
  return Object.fromEntries(
    TASKS.map((task) => [
      task.identifier,
      async (payload: unknown) => {
        await task.run(ctx, payload);
      },
    ]),
  );
}

/** The scheduled tasks. A run missed while no runner was up is not made up (backfill off): the next one catches up. */
export function cronItems(): ParsedCronItem[] {
  return parseCronItems(
    TASKS.filter((task) => task.schedule).map((task) => ({
      task: task.identifier,
      match: task.schedule!,
      options: { backfillPeriod: 0, ...(task.queueName ? { queueName: task.queueName } : {}) },
    })),
  );
}
