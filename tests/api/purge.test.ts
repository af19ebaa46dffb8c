import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../src/shared/limits';
import {
  CODE_RETENTION_MS,
  IDEMPOTENCY_RETENTION_MS,
  PASSWORD_RESET_RETENTION_MS,
  PURGE_TASK,
  SENT_MAIL_RETENTION_MS,
  SESSION_RETENTION_MS,
  SIGN_IN_THROTTLE_RETENTION_MS,
  SIGN_IN_STATE_RETENTION_MS,
} from '../../src/server/jobs/purge';
import { addJob } from '../../src/server/queues/repository';
import { createCustomer, createTestApp, drainJobs, type TestContext } from '../support/app';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

describe('the hourly purge', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ seedDemo: false });
  });
  afterAll(async () => ctx?.close());

  it('deletes what is past its retention and nothing younger', async () => {
    const db = ctx.database.db;
    const { userId } = await createCustomer(ctx);
    const ago = (ms: number) => new Date(Date.now() - ms);
    // Each kind of row: one just past its retention (gone after the purge), one just inside it (kept).
    const justPast = (retentionMs: number) => ago(retentionMs + 5 * MINUTE_MS);
    const justInside = (retentionMs: number) => ago(retentionMs - 5 * MINUTE_MS);

    const session = (label: string, values: { expires_at?: Date; ended_at?: Date | null; last_seen_at?: Date }) =>
      db
        .insertInto('sessions')
        .values({
          user_id: userId,
          token_hash: `purge-${label}`,
          expires_at: values.expires_at ?? new Date(Date.now() + HOUR_MS),
          ended_at: values.ended_at ?? null,
          last_seen_at: values.last_seen_at ?? new Date(),
        })
        .execute();
    await session('ended-long-ago', { ended_at: justPast(SESSION_RETENTION_MS) });
    await session('expired-long-ago', { expires_at: justPast(SESSION_RETENTION_MS) });
    await session('idle-long-ago', { last_seen_at: justPast(SESSION_RETENTION_MS + SESSION_IDLE_MS) });
    await session('ended-recently', { ended_at: justInside(SESSION_RETENTION_MS) });
    await session('expired-recently', { expires_at: justInside(SESSION_RETENTION_MS) });
    await session('idle-recently', { last_seen_at: justInside(SESSION_RETENTION_MS + SESSION_IDLE_MS) });
    await session('live', {});

    const code = (label: string, expiresAt: Date) =>
      db.insertInto('one_time_codes').values({ user_id: userId, purpose: 'transfer', code_hash: label, binding: label, expires_at: expiresAt }).execute();
    await code('old', justPast(CODE_RETENTION_MS));
    await code('recent', justInside(CODE_RETENTION_MS));

    const reset = (label: string, expiresAt: Date) =>
      db
        .insertInto('password_resets')
        .values({ user_id: userId, token_hash: `purge-${label}`, expires_at: expiresAt })
        .execute();
    await reset('old', justPast(PASSWORD_RESET_RETENTION_MS));
    await reset('recent', justInside(PASSWORD_RESET_RETENTION_MS));

    const ticket = (label: string, expiresAt: Date) =>
      db
        .insertInto('sign_in_tickets')
        .values({
          user_id: userId,
          token_hash: label.padEnd(64, '0'),
          audience: 'customer',
          methods: ['email'],
          email_code_hash: '0'.repeat(64),
          expires_at: expiresAt,
        })
        .execute();
    await ticket('old', justPast(SIGN_IN_STATE_RETENTION_MS));
    await ticket('recent', justInside(SIGN_IN_STATE_RETENTION_MS));

    const throttle = (label: string, lastFailureAt: Date, blockedUntil: Date | null) =>
      db
        .insertInto('sign_in_throttle')
        .values({ scope: 'customer', subject: `account:${label}`, failures: 4, last_failure_at: lastFailureAt, blocked_until: blockedUntil })
        .execute();
    await throttle('forgotten', justPast(SIGN_IN_THROTTLE_RETENTION_MS), justPast(SIGN_IN_THROTTLE_RETENTION_MS));
    await throttle('remembered', justInside(SIGN_IN_THROTTLE_RETENTION_MS), null);

    const idempotency = (key: string, createdAt: Date) =>
      db
        .insertInto('idempotency_keys')
        .values({ user_id: userId, key, request_hash: 'hash', status_code: 200, response: JSON.stringify({ data: null }), created_at: createdAt })
        .execute();
    await idempotency('old', justPast(IDEMPOTENCY_RETENTION_MS));
    await idempotency('recent', justInside(IDEMPOTENCY_RETENTION_MS));
    // A retry may come at least a day late and still be answered from the record.
    expect(IDEMPOTENCY_RETENTION_MS).toBeGreaterThanOrEqual(24 * HOUR_MS);

    const mail = (label: string, status: 'pending' | 'sent' | 'expired', createdAt: Date) =>
      db
        .insertInto('mail_outbox')
        .values({
          message_id: `<${label}@test>`,
          to_address: 'someone@example.com',
          subject: label,
          body: label,
          status,
          created_at: createdAt,
          sent_at: status === 'sent' ? createdAt : null,
        })
        .execute();
    await mail('sent-old', 'sent', justPast(SENT_MAIL_RETENTION_MS));
    await mail('expired-old', 'expired', justPast(SENT_MAIL_RETENTION_MS));
    await mail('sent-recent', 'sent', justInside(SENT_MAIL_RETENTION_MS));
    // Mail not delivered yet is never purged, however old.
    await mail('pending-old', 'pending', justPast(SENT_MAIL_RETENTION_MS));

    // The purge runs as the scheduled job does: queued, then run by the job runner.
    await addJob(db, PURGE_TASK, {});
    await drainJobs(ctx);

    const sessions = await db.selectFrom('sessions').select('token_hash').where('token_hash', 'like', 'purge-%').orderBy('token_hash').execute();
    expect(sessions.map((row) => row.token_hash)).toEqual(['purge-ended-recently', 'purge-expired-recently', 'purge-idle-recently', 'purge-live']);
    expect((await db.selectFrom('one_time_codes').select('binding').where('purpose', '=', 'transfer').execute()).map((row) => row.binding)).toEqual(['recent']);
    expect((await db.selectFrom('password_resets').select('token_hash').execute()).map((row) => row.token_hash)).toEqual(['purge-recent']);
    expect((await db.selectFrom('sign_in_tickets').select('token_hash').execute()).map((row) => row.token_hash.replace(/0+$/, ''))).toEqual(['recent']);
    expect((await db.selectFrom('sign_in_throttle').select('subject').execute()).map((row) => row.subject)).toEqual(['account:remembered']);
    expect((await db.selectFrom('idempotency_keys').select('key').where('user_id', '=', userId).execute()).map((row) => row.key)).toEqual(['recent']);
    const subjects = (await db.selectFrom('mail_outbox').select('subject').where('message_id', 'like', '%@test>').orderBy('subject').execute()).map(
      (row) => row.subject,
    );
    expect(subjects).toEqual(['pending-old', 'sent-recent']);
  });
});
