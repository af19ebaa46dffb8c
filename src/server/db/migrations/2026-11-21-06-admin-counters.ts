import { type Kysely, sql } from 'kysely';

// Exact counts the back office shows on every page (all users, open customers, pending KYC
// reviews), kept by statement-level triggers so no request counts 100,000 rows. A statement
// changes a counter only when its rows change the count, so ordinary profile edits take no lock
// on a counter row. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table admin_counters (
      name text primary key check (name in ('users', 'open_customers', 'pending_kyc')),
      value bigint not null check (value >= 0)
    )`.execute(db);
  await sql`
    insert into admin_counters (name, value)
    select 'users', count(*) from users
    union all select 'open_customers', count(*) from users where not is_admin and closed_at is null
    union all select 'pending_kyc', count(*) from users where verification_status = 'pending'`.execute(db);

  await sql`
    create function admin_counters_apply(users_delta bigint, open_delta bigint, pending_delta bigint) returns void
    language plpgsql as $$
    begin
      if users_delta <> 0 then update admin_counters set value = value + users_delta where name = 'users'; end if;
      if open_delta <> 0 then update admin_counters set value = value + open_delta where name = 'open_customers'; end if;
      if pending_delta <> 0 then update admin_counters set value = value + pending_delta where name = 'pending_kyc'; end if;
    end $$`.execute(db);

  await sql`
    create function admin_counters_on_insert() returns trigger language plpgsql as $$
    begin
      perform admin_counters_apply(
        (select count(*) from new_rows),
        (select count(*) from new_rows where not is_admin and closed_at is null),
        (select count(*) from new_rows where verification_status = 'pending'));
      return null;
    end $$`.execute(db);
  await sql`
    create function admin_counters_on_delete() returns trigger language plpgsql as $$
    begin
      perform admin_counters_apply(
        -(select count(*) from old_rows),
        -(select count(*) from old_rows where not is_admin and closed_at is null),
        -(select count(*) from old_rows where verification_status = 'pending'));
      return null;
    end $$`.execute(db);
  await sql`
    create function admin_counters_on_update() returns trigger language plpgsql as $$
    begin
      perform admin_counters_apply(
        0,
        (select count(*) from new_rows where not is_admin and closed_at is null) - (select count(*) from old_rows where not is_admin and closed_at is null),
        (select count(*) from new_rows where verification_status = 'pending') - (select count(*) from old_rows where verification_status = 'pending'));
      return null;
    end $$`.execute(db);
  await sql`create trigger users_admin_counters_insert after insert on users referencing new table as new_rows
    for each statement execute function admin_counters_on_insert()`.execute(db);
  await sql`create trigger users_admin_counters_delete after delete on users referencing old table as old_rows
    for each statement execute function admin_counters_on_delete()`.execute(db);
  await sql`create trigger users_admin_counters_update after update on users referencing old table as old_rows new table as new_rows
    for each statement execute function admin_counters_on_update()`.execute(db);
  // TRUNCATE would leave the counters wrong: reset them with it.
  await sql`
    create function admin_counters_on_truncate() returns trigger language plpgsql as $$
    begin
      update admin_counters set value = 0;
      return null;
    end $$`.execute(db);
  await sql`create trigger users_admin_counters_truncate after truncate on users
    for each statement execute function admin_counters_on_truncate()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
