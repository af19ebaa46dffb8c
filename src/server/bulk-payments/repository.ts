import type { DB } from '../db/database';

/** The checking accounts (where payments to a customer land) behind these account numbers. */
export function findPayees(db: DB, accountNumbers: string[]) {
  if (accountNumbers.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('ledger_accounts as a')
    .innerJoin('users as u', 'u.id', 'a.owner_id')
    .select(['a.id', 'a.number', 'u.id as owner_id', 'u.closed_at', 'u.first_name', 'u.last_name'])
    .where('a.number', 'in', accountNumbers)
    .where('a.kind', '=', 'checking')
    .execute();
}
