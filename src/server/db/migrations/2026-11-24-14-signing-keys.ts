import { type Kysely, sql } from 'kysely';

// Every public key the bank has signed with (statements, ledger anchors), by key id. A signature
// names its key id; after a rotation (a new BANK_SIGNING_KEY_FILE) the old keys stay here, so
// what they signed can still be verified and they stay published. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table signing_keys (
      key_id text primary key check (key_id ~ '^[0-9a-f]{16}$'),
      algorithm text not null default 'Ed25519' check (algorithm = 'Ed25519'),
      public_key text not null check (public_key like '-----BEGIN PUBLIC KEY-----%'),
      first_used_at timestamptz not null default now()
    )`.execute(db);
  // A key is published for good: its row is never changed or removed.
  await sql`
    create function signing_keys_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'signing_keys is append-only';
    end $$`.execute(db);
  await sql`
    create trigger signing_keys_append_only before update or delete on signing_keys
    for each row execute function signing_keys_append_only()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
