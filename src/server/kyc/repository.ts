import type { DB } from '../db/database';

/** Closing or deleting a customer: their identity submissions go (the files with eraseOwnerFiles). */
export async function eraseCustomerKyc(trx: DB, userId: string): Promise<void> {
  await trx.deleteFrom('kyc_submissions').where('user_id', '=', userId).execute();
}
