import { type Kysely, sql } from 'kysely';

// Every change that ends a session or changes what it allows is announced on one channel with the
// user's id (ADR 008, "The session cache"), so each app process can drop what it cached of that
// user's sessions: a session ended or expired early, a session row deleted (sign-out purges, a
// user deleted), any change to the user (a block, a role, a staff suspension, a closure, a payment
// hold, a profile edit), and a staff member's second factors (an enrol-only session). A session's
// once-a-minute `last_seen_at` touch announces nothing: a process never ends a session from what
// it cached. Row-level with a WHEN for the sessions' updates (the touch is the frequent one and
// costs no call); statement-level with transition tables elsewhere, so a purge of thousands of
// sessions sends one notification per user (PostgreSQL folds equal ones in a transaction).
// Frozen once landed.
const CHANNEL = 'll_session_changes';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
    create function announce_session_row() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${CHANNEL}', old.user_id::text);
      if new.user_id is distinct from old.user_id then
        perform pg_notify('${CHANNEL}', new.user_id::text);
      end if;
      return null;
    end $$;

    create function announce_sessions_of_user_id() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${CHANNEL}', changed.user_id::text) from (select distinct user_id from changed) as changed;
      return null;
    end $$;

    create function announce_sessions_of_id() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${CHANNEL}', changed.id::text) from (select distinct id from changed) as changed;
      return null;
    end $$;

    create trigger sessions_announce_update after update on sessions for each row
      when (old.ended_at is distinct from new.ended_at or old.expires_at is distinct from new.expires_at
        or old.token_hash is distinct from new.token_hash or old.user_id is distinct from new.user_id)
      execute function announce_session_row();
    create trigger sessions_announce_delete after delete on sessions
      referencing old table as changed for each statement execute function announce_sessions_of_user_id();

    create trigger users_announce_update after update on users
      referencing old table as changed for each statement execute function announce_sessions_of_id();
    create trigger users_announce_delete after delete on users
      referencing old table as changed for each statement execute function announce_sessions_of_id();

    create trigger passkeys_announce_insert after insert on passkeys
      referencing new table as changed for each statement execute function announce_sessions_of_user_id();
    create trigger passkeys_announce_update after update on passkeys
      referencing old table as changed for each statement execute function announce_sessions_of_user_id();
    create trigger passkeys_announce_delete after delete on passkeys
      referencing old table as changed for each statement execute function announce_sessions_of_user_id();

    create trigger totp_factors_announce_insert after insert on totp_factors
      referencing new table as changed for each statement execute function announce_sessions_of_user_id();
    create trigger totp_factors_announce_update after update on totp_factors
      referencing old table as changed for each statement execute function announce_sessions_of_user_id();
    create trigger totp_factors_announce_delete after delete on totp_factors
      referencing old table as changed for each statement execute function announce_sessions_of_user_id();
    `,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
