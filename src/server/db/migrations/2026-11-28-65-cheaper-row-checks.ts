import { type Kysely, sql } from 'kysely';

// Per-row checks that cost more than the rows they guard (issue 14's bulk target, ADR 021). Every
// payment of a bulk batch writes a notification, and every entry a journal row; measured on this
// machine, 20,000 to 100,000 rows a statement (one embedded PostgreSQL 18):
// - notifications.kind was checked by a regular expression: about 2.5 µs a row, as much as the
//   rest of the row's checks together. The kinds the bank writes are a closed list
//   (NOTIFICATION_KINDS, only ever added to), checked as journal_entries.kind is: about 0.05 µs. A
//   new kind comes with a migration that widens the list; a test holds the list to the contract.
// - notifications.user_id's foreign key checked each row with its own query and row lock (about
//   4 µs a row, 1,000 a bulk batch for its 31 payees). It is checked once per statement instead,
//   as migration 64 does for the ledger: every new row's customer exists and is locked FOR KEY
//   SHARE as a foreign key locks it, so a concurrent delete of that customer waits for the
//   notification's transaction and then removes it. Deleting a customer still removes their
//   notifications (the foreign key's ON DELETE CASCADE, now a trigger on users), and a
//   notification never moves to another customer (the app never does it; refused).
// - journal_entries.reversal_of was unique over every entry, so each entry put a NULL in that
//   index; only reversals are indexed now (same name: a second reversal of an entry is refused
//   with the same constraint name transactions/service.ts maps to its message).
// Frozen once landed.
const KINDS = [
  'money_received',
  'money_sent_above',
  'balance_below',
  'new_device_sign_in',
  'standing_order_failed',
  'statement_ready',
  'payment_request_received',
  'payment_request_answered',
  'payment_request_cancelled',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  // Validating the kinds and indexing the reversals of a long history outlast the app's statement limit.
  await sql`set local statement_timeout = 0`.execute(db);

  await sql`alter table notifications drop constraint notifications_kind_check`.execute(db);
  await sql
    .raw(`alter table notifications add constraint notifications_kind_check check (kind = any (array[${KINDS.map((kind) => `'${kind}'`).join(', ')}]))`)
    .execute(db);

  await sql`alter table notifications drop constraint notifications_user_id_fkey`.execute(db);
  await sql
    .raw(
      `
    create function check_notification_users() returns trigger language plpgsql as $$
    declare
      missing uuid;
    begin
      -- Lateral lookups by primary key, each locking its customer as a foreign key does.
      select named.user_id into missing
      from (select distinct user_id from new_rows) as named
      left join lateral (
        select person.id from users as person where person.id = named.user_id for key share of person
      ) as found on true
      where found.id is null
      limit 1;
      if found then
        raise exception 'a notification refers to user % that does not exist', missing using errcode = '23503';
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  await sql`
    create trigger notifications_users after insert on notifications
    referencing new table as new_rows for each statement execute function check_notification_users()`.execute(db);

  await sql
    .raw(
      `
    create function refuse_notification_move() returns trigger language plpgsql as $$
    begin
      raise exception 'a notification stays with its customer' using errcode = '23503';
    end $$`,
    )
    .execute(db);
  await sql`
    create trigger notifications_stay before update of user_id on notifications
    for each row when (old.user_id is distinct from new.user_id) execute function refuse_notification_move()`.execute(db);

  await sql
    .raw(
      `
    create function delete_users_notifications() returns trigger language plpgsql as $$
    begin
      delete from notifications where user_id in (select id from gone);
      return null;
    end $$`,
    )
    .execute(db);
  await sql`
    create trigger users_notifications_cascade after delete on users
    referencing old table as gone for each statement execute function delete_users_notifications()`.execute(db);

  await sql`alter table journal_entries drop constraint journal_entries_reversal_of_key`.execute(db);
  await sql`create unique index journal_entries_reversal_of_key on journal_entries (reversal_of) where reversal_of is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
