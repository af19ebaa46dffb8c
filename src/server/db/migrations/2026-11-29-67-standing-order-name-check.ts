import { type Kysely, sql } from 'kysely';

// Confirmation of payee for standing orders (ADR 029): what the bank told the customer when the
// mandate was approved, kept with the mandate so every payment it makes records it as a transfer's
// entry does. Null when there was nothing to check (between the customer's own accounts, a payee
// at another bank, an account number given without a name). Expand-only: old code ignores it.
// Frozen once landed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table standing_orders add column name_check text check (name_check in ('match', 'close_match', 'no_match'))`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
