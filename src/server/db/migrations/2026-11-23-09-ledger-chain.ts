import { type Kysely, sql } from 'kysely';

// The hash chain leaves the write path (docs/decisions/008-ledger-several-writers.md). Writers no
// longer lock one chain-head row: an entry commits with its postings and balances and a row in
// ledger_unsealed; a sealer chains committed entries into ledger_chain in batches, in order.
// journal_entries.seq stays as the order in which entries were applied (assigned under the
// account locks, so per account it is the order of the running balances); the chain position is
// ledger_chain.position. Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ledger_chain (
      position bigint primary key check (position > 0),
      entry_id uuid not null unique references journal_entries(id),
      prev_hash text not null,
      hash text not null,
      sealed_at timestamptz not null default now()
    )`.execute(db);
  // Every entry chained so far keeps its place and hash: its chain position was its seq.
  await sql`insert into ledger_chain (position, entry_id, prev_hash, hash) select seq, id, prev_hash, hash from journal_entries`.execute(db);
  await sql`create trigger ledger_chain_append_only before update or delete on ledger_chain for each row execute function refuse_change()`.execute(db);
  await sql`create trigger ledger_chain_no_truncate before truncate on ledger_chain for each statement execute function refuse_change()`.execute(db);

  // Committed entries waiting for the sealer: written in the posting's own statement, removed when chained.
  await sql`
    create table ledger_unsealed (
      entry_id uuid primary key references journal_entries(id),
      seq bigint not null,
      booked_at timestamptz not null
    )`.execute(db);
  await sql`create index ledger_unsealed_seq_idx on ledger_unsealed (seq)`.execute(db);

  await sql`alter table journal_entries drop column prev_hash, drop column hash`.execute(db);
  await sql`create sequence journal_entries_seq owned by journal_entries.seq`.execute(db);
  await sql`select setval('journal_entries_seq', coalesce((select max(seq) from journal_entries), 0) + 1, false)`.execute(db);
  await sql`alter table journal_entries alter column seq set default nextval('journal_entries_seq')`.execute(db);
  await sql`drop table ledger_chain_head`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
