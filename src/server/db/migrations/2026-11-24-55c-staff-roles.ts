import { type Kysely, sql } from 'kysely';

// Staff roles (issue 15, ADR 022). Every staff member (is_admin) has a role and a staff status of
// their own; customers have neither. Staff who exist already could do everything: they become
// `admin`, active. An invitation is a link to set a first password: only its hash is stored, it
// works once, within its time. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column staff_role text, add column staff_status text`.execute(db);
  await sql`update users set staff_role = 'admin', staff_status = 'active' where is_admin`.execute(db);
  await sql`
    alter table users
      add constraint users_staff_role_check check (staff_role in ('support', 'compliance', 'finance', 'admin')),
      add constraint users_staff_status_check check (staff_status in ('invited', 'active', 'suspended')),
      add constraint users_staff_role_iff_staff check (is_admin = (staff_role is not null) and is_admin = (staff_status is not null))
  `.execute(db);
  // The last active admin is looked for on every suspension and demotion.
  await sql`create index users_active_admins on users (id) where staff_role = 'admin' and staff_status = 'active'`.execute(db);

  await sql`
    create table staff_invitations (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      token_hash text not null unique check (length(token_hash) = 64),
      invited_by uuid references users(id) on delete set null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index staff_invitations_user_id on staff_invitations (user_id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
