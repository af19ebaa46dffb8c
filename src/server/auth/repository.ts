import type { DB } from '../db/database';

/** Closing a customer: their one-time codes, reset links and sign-in throttle go with them. */
export async function eraseCredentials(trx: DB, userId: string, email: string): Promise<void> {
  await trx.deleteFrom('one_time_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  await trx.deleteFrom('login_throttle').where('email', '=', email).execute();
}
