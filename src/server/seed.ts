import { randomBytes } from 'node:crypto';
import type { Config } from './config';
import type { DB } from './db/database';
import { hashPassword } from './auth/crypto';
import { ensureBankAccounts, openCustomerAccounts } from './ledger/accounts';

export interface DemoSignIn {
  role: 'admin' | 'customer';
  email: string;
  /** Null when the password was set by the operator or shown only once before. */
  password: string | null;
}

export const DEMO_ADMIN_PASSWORD = 'Ledgerline-Admin-2026';
export const DEMO_CUSTOMER_PASSWORD = 'Ledgerline-Demo-2026';

export const DEMO_CUSTOMERS = [
  {
    email: 'alex.morgan@example.com',
    firstName: 'Alex',
    lastName: 'Morgan',
    phone: '+1 202 555 0143',
    address: '12 Harbor Street, Portland',
    state: 'Oregon',
    openingCents: { checking: 250_000, savings: 1_200_000 },
  },
  {
    email: 'jamie.lee@example.com',
    firstName: 'Jamie',
    lastName: 'Lee',
    phone: '+1 415 555 0178',
    address: '88 Market Lane, San Francisco',
    state: 'California',
    openingCents: { checking: 80_000, savings: 300_000 },
  },
] as const;

/** Hook for the ledger: credits a demo customer's opening balances through real entries. */
export type OpeningBalancePoster = (db: DB, userId: string, cents: { checking: number; savings: number }) => Promise<void>;
let postOpeningBalances: OpeningBalancePoster | undefined;
export function setOpeningBalancePoster(poster: OpeningBalancePoster): void {
  postOpeningBalances = poster;
}

/**
 * First start: the bank's own ledger accounts, the admin, and (in demo mode) two verified demo
 * customers. Idempotent: later starts change nothing and only report the sign-ins.
 */
export async function seed(db: DB, config: Config): Promise<DemoSignIn[]> {
  await ensureBankAccounts(db);
  const signIns: DemoSignIn[] = [];

  const adminEmail = config.adminEmail ?? 'admin@example.com';
  const existingAdmin = await db.selectFrom('users').select(['id', 'email']).where('is_admin', '=', true).orderBy('created_at').executeTakeFirst();
  if (!existingAdmin) {
    const password = config.adminPassword ?? (config.demoMode ? DEMO_ADMIN_PASSWORD : randomBytes(12).toString('base64url'));
    await db
      .insertInto('users')
      .values({
        email: adminEmail,
        password_hash: await hashPassword(password),
        first_name: 'Bank',
        last_name: 'Administrator',
        is_admin: true,
        is_email_confirmed: true,
        verification_status: 'verified',
      })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .execute();
    signIns.push({ role: 'admin', email: adminEmail, password: config.adminPassword ? null : password });
  } else {
    const shown = !config.adminPassword && config.demoMode ? DEMO_ADMIN_PASSWORD : null;
    signIns.push({ role: 'admin', email: existingAdmin.email, password: shown });
  }

  if (!config.demoMode) return signIns;
  for (const customer of DEMO_CUSTOMERS) {
    const existing = await db.selectFrom('users').select('id').where('email', '=', customer.email).executeTakeFirst();
    if (!existing) {
      await db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('users')
          .values({
            email: customer.email,
            password_hash: await hashPassword(DEMO_CUSTOMER_PASSWORD),
            first_name: customer.firstName,
            last_name: customer.lastName,
            phone: customer.phone,
            address: customer.address,
            state: customer.state,
            date_of_birth: '1988-04-12',
            sex: 'Prefer not to say',
            country_code: '1',
            occupation: 'private',
            annual_income_range: '$30,000.00 - $70,000.00',
            account_type: 'Checking',
            is_email_confirmed: true,
            verification_status: 'verified',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await openCustomerAccounts(trx, created.id);
        if (postOpeningBalances) await postOpeningBalances(trx, created.id, customer.openingCents);
      });
    }
    signIns.push({ role: 'customer', email: customer.email, password: DEMO_CUSTOMER_PASSWORD });
  }
  return signIns;
}
