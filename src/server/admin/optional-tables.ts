import { sql } from 'kysely';
import type { DB } from '../db/database';

/**
 * Tables that other modules own and that may not be installed yet (loans, contact messages, the
 * journal while the ledger lands). A table that exists stays: only a positive answer is cached.
 */
const present = new Set<string>();

export type OptionalTable = 'loans' | 'contact_messages' | 'journal_entries' | 'postings';

export async function tableExists(db: DB, table: OptionalTable): Promise<boolean> {
  if (present.has(table)) return true;
  const result = await sql<{ found: boolean }>`select to_regclass(${`public.${table}`}) is not null as found`.execute(db);
  const found = result.rows[0]?.found === true;
  if (found) present.add(table);
  return found;
}
