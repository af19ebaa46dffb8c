import { type Kysely, sql } from 'kysely';

// Payment approvals with a passkey (issue 13's dynamic linking, ADR 024). Frozen once landed.
//
// One row per WebAuthn challenge handed out to approve one payment (a transfer, a wire, a payment
// request, a standing order's mandate or a bulk batch). `binding` is the SHA-256 of the payment's
// canonical encoding; `challenge` is SHA-256(nonce || binding) in base64url, the bytes the passkey
// signs. A challenge works once (`used_at`), for 5 minutes, and only for the payment it was
// derived from. `attempts` counts refused answers, so they count towards the day's cap on failed
// approvals as wrong emailed codes do; rows count towards the hourly cap as emailed codes do.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payment_approvals (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      kind text not null check (kind in ('transfer', 'wire', 'payment_request', 'standing_order', 'bulk')),
      binding text not null check (length(binding) = 64),
      nonce text not null check (length(nonce) between 16 and 64),
      challenge text not null unique check (length(challenge) between 16 and 128),
      amount_cents bigint not null check (amount_cents > 0),
      payee text not null check (length(payee) between 1 and 300),
      attempts integer not null default 0 check (attempts >= 0),
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index payment_approvals_user_created on payment_approvals (user_id, created_at desc)`.execute(db);
  await sql`create index payment_approvals_expires_at on payment_approvals (expires_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
