import { type Kysely, sql } from 'kysely';

// The audit trail becomes tamper-evident and erasable (docs/decisions/014-audit-chain-and-anchors.md).
//
// - audit_records: what a staff action was (when, who by id, which action, on what), append-only,
//   and `personal_hash`: the salted SHA-256 of the record's personal part.
// - audit_personal: that personal part (the actor's email and address, before/after, reason) as
//   the exact JSON text that was hashed, with its salt. Closing a customer deletes these rows
//   (erasure); the record and its hash stay, so the chain still verifies. Never updated.
// - audit_chain / audit_unsealed: the hash chain over audit_records, sealed after commit by the
//   same pattern as the ledger's (ADR 008).
// - audit_log: a view with the columns the table had, so readers and writers keep working; an
//   insert through it splits the row, hashes the personal part and queues it for sealing.
// - anchors: every signed anchor line written to ANCHOR_FILE (the file is the authority).
//
// Existing records move into the new tables (same ids) with their personal part hashed, and wait
// in audit_unsealed: the first sealer round after start chains them in id order. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  // sha256() is built in (PostgreSQL 11+); the app recomputes the same bytes: salt, ':', data as UTF-8.
  await sql`
    create function audit_personal_hash(salt text, data text) returns text language sql immutable strict as $$
      select encode(sha256(convert_to(salt || ':' || data, 'UTF8')), 'hex')
    $$`.execute(db);
  // 64 hex characters from two random UUIDs (pg_strong_random underneath; no extension needed).
  await sql`
    create function audit_new_salt() returns text language sql volatile as $$
      select replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
    $$`.execute(db);
  await sql`
    create function audit_personal_data(actor_email text, ip text, before jsonb, after jsonb, reason text) returns text
    language sql immutable as $$
      select jsonb_build_object('actorEmail', actor_email, 'ip', ip, 'before', before, 'after', after, 'reason', reason)::text
    $$`.execute(db);

  await sql`
    create table audit_records (
      id bigint generated always as identity primary key,
      at timestamptz not null default now(),
      actor_id uuid,
      action text not null,
      target_user_id uuid,
      target_type text,
      target_id text,
      personal_hash text not null check (personal_hash ~ '^[0-9a-f]{64}$')
    )`.execute(db);
  await sql`
    create table audit_personal (
      audit_id bigint primary key references audit_records(id),
      salt text not null check (salt ~ '^[0-9a-f]{64}$'),
      data text not null
    )`.execute(db);
  await sql`
    create table audit_chain (
      position bigint primary key check (position > 0),
      audit_id bigint not null unique references audit_records(id),
      prev_hash text not null,
      hash text not null,
      sealed_at timestamptz not null default now()
    )`.execute(db);
  await sql`create table audit_unsealed (audit_id bigint primary key references audit_records(id))`.execute(db);

  // Every existing record, with its id, its personal part split off and hashed.
  await sql`
    with source as materialized (
      select l.*, audit_new_salt() as salt, audit_personal_data(l.actor_email, l.ip, l.before, l.after, l.reason) as data
      from audit_log l
    ), records as (
      insert into audit_records (id, at, actor_id, action, target_user_id, target_type, target_id, personal_hash)
      overriding system value
      select id, at, actor_id, action, target_user_id, target_type, target_id, audit_personal_hash(salt, data) from source
      returning id
    ), personal as (
      insert into audit_personal (audit_id, salt, data) select id, salt, data from source returning audit_id
    )
    insert into audit_unsealed (audit_id) select id from records`.execute(db);
  await sql`select setval(pg_get_serial_sequence('audit_records', 'id'), coalesce((select max(id) from audit_records), 0) + 1, false)`.execute(db);
  await sql`drop table audit_log`.execute(db);

  await sql`create index audit_records_at_idx on audit_records (at desc, id desc)`.execute(db);
  await sql`create index audit_records_actor_idx on audit_records (actor_id, at desc)`.execute(db);
  await sql`create index audit_records_target_idx on audit_records (target_user_id, at desc)`.execute(db);
  await sql`create index audit_records_action_idx on audit_records (action, at desc)`.execute(db);

  for (const table of ['audit_records', 'audit_chain']) {
    await sql.raw(`create trigger ${table}_append_only before update or delete on ${table} for each row execute function refuse_change()`).execute(db);
    await sql.raw(`create trigger ${table}_no_truncate before truncate on ${table} for each statement execute function refuse_change()`).execute(db);
  }
  // The personal part is erased (deleted) when its customer is closed, never changed.
  await sql`create trigger audit_personal_no_update before update on audit_personal for each row execute function refuse_change()`.execute(db);
  await sql`create trigger audit_personal_no_truncate before truncate on audit_personal for each statement execute function refuse_change()`.execute(db);

  // The old shape, for every reader and writer: personal columns are null once erased.
  await sql`
    create view audit_log as
    select r.id, r.at, r.actor_id, (p.data::jsonb ->> 'actorEmail') as actor_email, r.action, r.target_user_id, r.target_type,
      r.target_id, (p.data::jsonb -> 'before') as before, (p.data::jsonb -> 'after') as after, (p.data::jsonb ->> 'reason') as reason,
      (p.data::jsonb ->> 'ip') as ip, r.personal_hash, (p.audit_id is null) as erased
    from audit_records r left join audit_personal p on p.audit_id = r.id`.execute(db);
  await sql`
    create function audit_log_insert() returns trigger language plpgsql as $$
    declare
      salt text := audit_new_salt();
      data text := audit_personal_data(new.actor_email, new.ip, new.before, new.after, new.reason);
    begin
      insert into audit_records (at, actor_id, action, target_user_id, target_type, target_id, personal_hash)
      values (coalesce(new.at, now()), new.actor_id, new.action, new.target_user_id, new.target_type, new.target_id, audit_personal_hash(salt, data))
      returning id, at, personal_hash into new.id, new.at, new.personal_hash;
      insert into audit_personal (audit_id, salt, data) values (new.id, salt, data);
      insert into audit_unsealed (audit_id) values (new.id);
      new.erased := false;
      return new;
    end $$`.execute(db);
  await sql`create trigger audit_log_insert instead of insert on audit_log for each row execute function audit_log_insert()`.execute(db);
  await sql`create trigger audit_log_append_only instead of update or delete on audit_log for each row execute function refuse_change()`.execute(db);

  await sql`
    create table anchors (
      seq bigint primary key check (seq > 0),
      ledger_position bigint not null check (ledger_position >= 0),
      ledger_hash text not null check (ledger_hash ~ '^[0-9a-f]{64}$'),
      audit_position bigint not null check (audit_position >= 0),
      audit_hash text not null check (audit_hash ~ '^[0-9a-f]{64}$'),
      at timestamptz not null,
      key_id text not null references signing_keys(key_id),
      signature text not null,
      line text not null,
      daily_date date unique,
      requested_by uuid,
      recorded_at timestamptz not null default now()
    )`.execute(db);
  await sql`create trigger anchors_append_only before update or delete on anchors for each row execute function refuse_change()`.execute(db);
  await sql`create trigger anchors_no_truncate before truncate on anchors for each statement execute function refuse_change()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
