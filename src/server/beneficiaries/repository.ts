import type { Selectable } from 'kysely';
import type { DB } from '../db/database';
import type { BeneficiariesTable } from '../db/schema';

export type BeneficiaryRow = Selectable<BeneficiariesTable>;
export type NewBeneficiary = { name: string; accountNumber: string; routingNumber: string; bankName: string };

export function listBeneficiaries(db: DB, userId: string, limit: number): Promise<BeneficiaryRow[]> {
  return db.selectFrom('beneficiaries').selectAll().where('user_id', '=', userId).orderBy('name').orderBy('id').limit(limit).execute();
}

/** Serializes one customer's saves (locks their user row), so the count limit holds under concurrent calls. */
export async function lockOwner(trx: DB, userId: string): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
}

export function findSavedPayee(trx: DB, userId: string, payee: Pick<NewBeneficiary, 'routingNumber' | 'accountNumber'>): Promise<BeneficiaryRow | undefined> {
  return trx
    .selectFrom('beneficiaries')
    .selectAll()
    .where('user_id', '=', userId)
    .where('routing_number', '=', payee.routingNumber)
    .where('account_number', '=', payee.accountNumber)
    .executeTakeFirst();
}

export async function countBeneficiaries(trx: DB, userId: string): Promise<number> {
  const { count } = await trx
    .selectFrom('beneficiaries')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export function insertBeneficiary(trx: DB, userId: string, payee: NewBeneficiary): Promise<BeneficiaryRow> {
  return trx
    .insertInto('beneficiaries')
    .values({ user_id: userId, name: payee.name, account_number: payee.accountNumber, routing_number: payee.routingNumber, bank_name: payee.bankName })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes a payee of this customer; undefined when they have none with this id. */
export async function deleteBeneficiary(db: DB, userId: string, id: string): Promise<string | undefined> {
  const row = await db.deleteFrom('beneficiaries').where('id', '=', id).where('user_id', '=', userId).returning('id').executeTakeFirst();
  return row?.id;
}
