import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context';
import { inTransaction } from '../db/transaction';
import { addJob } from '../queues/repository';
import type { MailMessage } from './mailer';
import * as repository from './repository';

/** The job that delivers one outbox row (registered in jobs/registry.ts). */
export const SEND_MAIL_TASK = 'send_mail';

/**
 * Tries per mail before its job counts as failed (staff can retry it from the queue page). The
 * pause after try n is e^n seconds (graphile-worker's backoff): 12 tries span about 22 hours of
 * SMTP outage.
 */
export const MAIL_ATTEMPTS_MAX = 12;

/** The domain of the Message-IDs: MAIL_FROM's. */
const messageIdDomain = (from: string) => from.match(/@([^>\s]+)>?\s*$/)?.[1] ?? 'ledgerline.localhost';

/**
 * Queues a mail in the outbox on `ctx.db`: called inside the transaction of the change that causes
 * it, the mail commits with the change or not at all, and the request never waits for SMTP.
 * `expiresAt`: when the code or link it carries stops working; a mail not delivered by then is
 * dropped, not sent late.
 */
export async function queueMail(ctx: Pick<AppContext, 'db' | 'config'>, message: MailMessage, options: { expiresAt?: Date } = {}): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const { id } = await repository.insertOutboxMail(trx, {
      ...message,
      messageId: `<${randomUUID()}@${messageIdDomain(ctx.config.mailFrom)}>`,
      expiresAt: options.expiresAt ?? null,
    });
    await addJob(trx, SEND_MAIL_TASK, { outboxId: id }, { jobKey: `mail:${id}`, maxAttempts: MAIL_ATTEMPTS_MAX });
  });
}

/**
 * The send_mail job: delivers one outbox row, at least once, with its stored Message-ID. A row
 * already sent (the job ran again) is left alone; one whose code expired is marked so and not sent.
 * A transport failure is recorded on the row and thrown, so the job is retried with backoff. Once
 * sent by SMTP (or dropped) the row keeps no body: codes and reset links do not outlive their mail.
 */
export async function deliverMail(ctx: Pick<AppContext, 'db' | 'mailer' | 'clock'>, outboxId: number): Promise<void> {
  const row = await repository.findOutboxMail(ctx.db, outboxId);
  if (!row || row.status !== 'pending') return;
  if (row.expires_at && new Date(row.expires_at).getTime() <= ctx.clock.now().getTime()) {
    await repository.markMailExpired(ctx.db, row.id);
    return;
  }
  try {
    await ctx.mailer.send({ to: row.to_address, subject: row.subject, text: row.body, messageId: row.message_id });
  } catch (error) {
    await repository.recordMailFailure(ctx.db, row.id, error instanceof Error ? error.message : String(error));
    throw error;
  }
  await repository.markMailSent(ctx.db, row.id, ctx.clock.now(), { clearBody: !ctx.mailer.keepsDeliveredMail });
}
