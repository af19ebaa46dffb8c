import { type Kysely, sql } from 'kysely';

// Payment requests (issue 14, docs/decisions/020-payment-requests.md). Frozen once landed.
//
// - `to_text` is what the requester typed (an email or an account number), kept as typed so the
//   requester's list never shows a name they did not know. `payer_id` is the customer it named, or
//   null when it named none: the request is stored either way, so the answer is the same.
// - Paid means one journal entry: `entry_id` is set exactly when the status is 'paid', and unique.
// - A customer deleted outright (no ledger history) takes their sent requests along; a request to
//   them stays with no payer, as if sent to a stranger.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payment_requests (
      id uuid primary key,
      requester_id uuid not null references users(id) on delete cascade,
      payer_id uuid references users(id) on delete set null,
      to_text text not null check (length(to_text) between 1 and 254),
      amount_cents bigint not null check (amount_cents > 0),
      note text check (length(note) <= 140),
      status text not null default 'pending' check (status in ('pending', 'paid', 'declined')),
      entry_id uuid unique references journal_entries(id),
      created_at timestamptz not null,
      answered_at timestamptz,
      check ((status = 'paid') = (entry_id is not null)),
      check ((status = 'pending') = (answered_at is null)),
      check (payer_id is null or payer_id <> requester_id)
    )`.execute(db);
  await sql`create index payment_requests_requester_idx on payment_requests (requester_id, created_at desc, id desc)`.execute(db);
  await sql`create index payment_requests_payer_idx on payment_requests (payer_id, created_at desc, id desc) where payer_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists payment_requests`.execute(db);
}
