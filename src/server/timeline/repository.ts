import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database';

// The customer page's timeline (issue 15): one newest-first list over the ledger, sessions, KYC,
// loans, card requests and staff notes. Each source is read newest first from its own per-user
// index, stopping at the page size, and the pieces are merged: a page costs the same however long
// the history. The position is (time in microseconds, kind, id), so ties are ordered too.

export interface TimelinePosition {
  atMicros: number;
  kind: string;
  id: string;
}

export interface TimelineRow {
  kind: string;
  id: string;
  at: Date;
  at_micros: number;
  data: Record<string, unknown>;
}

const micros = (column: RawBuilder<unknown>) => sql<number>`(extract(epoch from ${column}) * 1000000)::bigint`;

/** Rows of one kind strictly older than the position (the time bound first, so the index range is used). */
function before(kind: string, at: RawBuilder<unknown>, id: RawBuilder<unknown>, position: TimelinePosition | undefined) {
  if (!position) return sql`true`;
  const cursorAt = sql`(timestamptz 'epoch' + ${position.atMicros} * interval '1 microsecond')`;
  return sql`${at} <= ${cursorAt} and (${micros(at)}, ${kind}::text, ${id}) < (${position.atMicros}::bigint, ${position.kind}::text, ${position.id}::text)`;
}

/** One page of a user's timeline, newest first (up to `limit` rows). */
export async function timeline(db: DB, userId: string, accountIds: string[], position: TimelinePosition | undefined, limit: number): Promise<TimelineRow[]> {
  const branch = (kind: string, query: (bound: RawBuilder<unknown>) => RawBuilder<unknown>, at: RawBuilder<unknown>, id: RawBuilder<unknown>) =>
    sql`(${query(before(kind, at, id, position))} order by ${at} desc, ${id} desc limit ${limit})`;
  const branches = [
    branch(
      'entry',
      (bound) => sql`
        select 'entry' as kind, e.id::text as id, e.booked_at as at, ${micros(sql`e.booked_at`)} as at_micros,
          jsonb_build_object('entryKind', e.kind, 'description', coalesce((select n.description from entry_notes n where n.entry_id = e.id order by n.id desc limit 1), e.description),
            'amount', sum(p.amount), 'reversalOf', e.reversal_of) as data
        from postings p join journal_entries e on e.id = p.entry_id
        where p.account_id = any(${accountIds}::uuid[]) and ${bound}
        group by e.id`,
      sql`e.booked_at`,
      sql`e.id::text`,
    ),
    branch(
      'sign_in',
      (bound) => sql`
        select 'sign_in' as kind, s.id::text as id, s.created_at as at, ${micros(sql`s.created_at`)} as at_micros,
          jsonb_build_object('userAgent', s.user_agent, 'ip', s.ip, 'endedAt', s.ended_at) as data
        from sessions s where s.user_id = ${userId}::uuid and ${bound}`,
      sql`s.created_at`,
      sql`s.id::text`,
    ),
    branch(
      'kyc_submitted',
      (bound) => sql`
        select 'kyc_submitted' as kind, k.id::text as id, k.created_at as at, ${micros(sql`k.created_at`)} as at_micros,
          jsonb_build_object('documentType', k.document_type) as data
        from kyc_submissions k where k.user_id = ${userId}::uuid and ${bound}`,
      sql`k.created_at`,
      sql`k.id::text`,
    ),
    branch(
      'kyc_decided',
      (bound) => sql`
        select 'kyc_decided' as kind, k.id::text as id, k.reviewed_at as at, ${micros(sql`k.reviewed_at`)} as at_micros,
          jsonb_build_object('status', k.status, 'reason', k.reason, 'reviewer', (select email from users where id = k.reviewed_by)) as data
        from kyc_submissions k where k.user_id = ${userId}::uuid and k.reviewed_at is not null and ${bound}`,
      sql`k.reviewed_at`,
      sql`k.id::text`,
    ),
    branch(
      'loan_applied',
      (bound) => sql`
        select 'loan_applied' as kind, l.id::text as id, l.created_at as at, ${micros(sql`l.created_at`)} as at_micros,
          jsonb_build_object('loanType', l.loan_type, 'amount', l.amount_cents, 'months', l.duration_months) as data
        from loans l where l.user_id = ${userId}::uuid and ${bound}`,
      sql`l.created_at`,
      sql`l.id::text`,
    ),
    branch(
      'loan_decided',
      (bound) => sql`
        select 'loan_decided' as kind, l.id::text as id, l.decided_at as at, ${micros(sql`l.decided_at`)} as at_micros,
          jsonb_build_object('loanType', l.loan_type, 'amount', l.amount_cents, 'status', l.status, 'reason', l.decision_reason,
            'decider', (select email from users where id = l.decided_by)) as data
        from loans l where l.user_id = ${userId}::uuid and l.decided_at is not null and ${bound}`,
      sql`l.decided_at`,
      sql`l.id::text`,
    ),
    branch(
      'card_requested',
      (bound) => sql`
        select 'card_requested' as kind, c.id::text as id, c.created_at as at, ${micros(sql`c.created_at`)} as at_micros,
          jsonb_build_object('cardType', c.card_type, 'status', c.status, 'note', c.note) as data
        from card_requests c where c.user_id = ${userId}::uuid and ${bound}`,
      sql`c.created_at`,
      sql`c.id::text`,
    ),
    // Four eyes (ADR 023): each staff request about the customer, at the time it was asked, with its outcome.
    branch(
      'approval',
      (bound) => sql`
        select 'approval' as kind, a.id::text as id, a.requested_at as at, ${micros(sql`a.requested_at`)} as at_micros,
          jsonb_build_object('approvalKind', a.kind, 'summary', a.summary, 'status', a.status, 'reason', a.reason,
            'requester', (select email from users where id = a.requested_by), 'decider', (select email from users where id = a.decided_by)) as data
        from approvals a where a.customer_id = ${userId}::uuid and ${bound}`,
      sql`a.requested_at`,
      sql`a.id::text`,
    ),
    branch(
      'recovery',
      (bound) => sql`
        select 'recovery' as kind, a.id::text as id, a.at as at, ${micros(sql`a.at`)} as at_micros,
          jsonb_build_object('action', a.action, 'actor', a.actor_email, 'reason', a.reason, 'erased', a.erased) as data
        from audit_log a where a.target_user_id = ${userId}::uuid and a.action like 'account\\_recovery.%' and ${bound}`,
      sql`a.at`,
      sql`a.id::text`,
    ),
    branch(
      'note',
      (bound) => sql`
        select 'note' as kind, n.id::text as id, n.created_at as at, ${micros(sql`n.created_at`)} as at_micros,
          jsonb_build_object('body', n.body, 'author', n.author_email, 'erased', n.erased_at is not null) as data
        from customer_notes n where n.user_id = ${userId}::uuid and ${bound}`,
      sql`n.created_at`,
      sql`n.id::text`,
    ),
  ];
  const result = await sql<TimelineRow>`
    select * from (${sql.join(branches, sql` union all `)}) as events
    order by at_micros desc, kind desc, id desc
    limit ${limit}`.execute(db);
  return result.rows.map((row) => ({ ...row, at_micros: Number(row.at_micros) }));
}

export async function insertNote(trx: DB, note: { userId: string; authorId: string; authorEmail: string; body: string }) {
  return trx
    .insertInto('customer_notes')
    .values({ user_id: note.userId, author_id: note.authorId, author_email: note.authorEmail, body: note.body })
    .returning(['id', 'user_id', 'body', 'author_email', 'created_at'])
    .executeTakeFirstOrThrow();
}

/** Closing a customer: their notes' text goes (personal data), the rows stay marked erased. */
export async function eraseNotes(trx: DB, userId: string): Promise<void> {
  await trx
    .updateTable('customer_notes')
    .set({ body: '', erased_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('erased_at', 'is', null)
    .execute();
}
