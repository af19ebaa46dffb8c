import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from './context';
import type { DB } from './db/database';
import { hashPassword } from './auth/crypto';
import { DEMO_ADMIN_TOTP_SECRET, firstAdminTotpSecret, totpUri } from './factors/totp';
import { ensureBankAccounts, openCustomerAccounts } from './ledger/accounts';
import { openingEntries } from './ledger/opening';

export interface DemoSignIn {
  role: 'admin' | 'customer';
  email: string;
  /** Null when the password was set by the operator or shown only once before. */
  password: string | null;
  /**
   * The first admin's second factor (ADR 011): the demo secret (published: its otpauth:// URI is
   * printed with a QR code), the operator's ADMIN_TOTP_SECRET, none yet (enrolled at first
   * sign-in), or whatever that admin enrolled since.
   */
  secondFactor?: { kind: 'demo'; secret: string; uri: string } | { kind: 'configured' } | { kind: 'none' } | { kind: 'enrolled' };
  /** Printed instead of the second factor's lines (the second admin shares the first one's factor). */
  note?: string;
}

export const DEMO_ADMIN_PASSWORD = 'Ledgerline-Admin-2026';
export const DEMO_CUSTOMER_PASSWORD = 'Ledgerline-Demo-2026';

export const DEMO_CUSTOMERS = [
  {
    email: 'alex.morgan@example.com',
    firstName: 'Alex',
    lastName: 'Morgan',
    phone: '+12025550143',
    address: '12 Harbor Street, Portland',
    state: 'Oregon',
    openingCents: { checking: 250_000, savings: 1_200_000 },
  },
  {
    email: 'jamie.lee@example.com',
    firstName: 'Jamie',
    lastName: 'Lee',
    phone: '+14155550178',
    address: '88 Market Lane, San Francisco',
    state: 'California',
    openingCents: { checking: 80_000, savings: 300_000 },
  },
] as const;

/**
 * The first admin's authenticator app, enrolled as the admin is created: ADMIN_TOTP_SECRET, or in
 * demo mode the published demo secret. Without either (a production start), the admin has no
 * factor and its first sign-in can only enrol one (ADR 011).
 */
async function enrolFirstAdmin(ctx: AppContext, adminId: string, email: string): Promise<NonNullable<DemoSignIn['secondFactor']>> {
  const secret = firstAdminTotpSecret(ctx.config);
  if (!secret) return { kind: 'none' };
  await ctx.db.insertInto('totp_factors').values({ user_id: adminId, secret, confirmed_at: new Date() }).execute();
  if (ctx.config.adminTotpSecret) return { kind: 'configured' };
  return { kind: 'demo', secret, uri: totpUri(secret, ctx.config.bankName, email) };
}

/** What a later start says of the first admin's factor; ADMIN_TOTP_SECRET no longer applies to it. */
async function firstAdminFactor(ctx: AppContext, admin: { id: string; email: string }): Promise<NonNullable<DemoSignIn['secondFactor']>> {
  if (ctx.config.adminTotpSecret) {
    ctx.log.warn(
      `ADMIN_TOTP_SECRET is ignored: the first admin (${admin.email}) exists already. It applies only when the first start creates that admin; ` +
        'staff set up their factors under Security in the back office.',
    );
  }
  const totp = await ctx.db.selectFrom('totp_factors').select(['secret', 'confirmed_at']).where('user_id', '=', admin.id).executeTakeFirst();
  // The demo secret is published: showing it again costs nothing and lets the demo be used.
  if (totp?.confirmed_at && totp.secret === DEMO_ADMIN_TOTP_SECRET && ctx.config.demoMode) {
    return { kind: 'demo', secret: totp.secret, uri: totpUri(totp.secret, ctx.config.bankName, admin.email) };
  }
  const passkey = await ctx.db.selectFrom('passkeys').select('id').where('user_id', '=', admin.id).limit(1).executeTakeFirst();
  return totp?.confirmed_at || passkey ? { kind: 'enrolled' } : { kind: 'none' };
}

/** The advisory lock that lets one instance seed at a time (next to the sealer's, ledger/sealer.ts). */
const SEED_LOCK_KEY = 4_812_100;

/**
 * First start: the bank's own ledger accounts, the admin, and (in demo mode) two verified demo
 * customers. Idempotent: later starts change nothing and only report the sign-ins. Several
 * instances starting at once on one database take turns (a PostgreSQL advisory lock held by one
 * connection while the seed runs): the second finds what the first created, so there is one
 * admin and one set of demo customers with one opening balance each.
 */
export async function seed(ctx: AppContext): Promise<DemoSignIn[]> {
  return ctx.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${SEED_LOCK_KEY})`.execute(connection);
    try {
      return await seedOnce(ctx);
    } finally {
      await sql`select pg_advisory_unlock(${SEED_LOCK_KEY})`.execute(connection);
    }
  });
}

export const DEMO_DATABASE_MESSAGE =
  'This database holds a demo bank (demo customers and staff with published passwords): start it with DEMO_MODE=true, or give a real bank a database of its own (DATABASE_URL, or another DATA_DIR).';
export const REAL_DATABASE_MESSAGE =
  'This database holds a real bank (its first start had DEMO_MODE=false): set DEMO_MODE=false here too (demo mode is the default when it is unset), or give a demo a database of its own.';

/**
 * Records which kind of bank the database holds at its first start, and refuses a start (app or
 * worker) whose DEMO_MODE says the other (migration 69): demo mode on a real bank's database would
 * seed sign-ins whose passwords are published, and a worker would send its mail to the development
 * outbox. A database from before the record counts as a demo when it holds the demo customers, as a
 * real bank when it holds anyone else.
 */
export async function settleBankMode(db: DB, demoMode: boolean): Promise<void> {
  if (!(await db.selectFrom('bank_mode').select('demo').executeTakeFirst())) {
    const users = await db.selectFrom('users').select('email').limit(1).executeTakeFirst();
    const demoCustomer = await db
      .selectFrom('users')
      .select('id')
      .where(
        'email',
        'in',
        DEMO_CUSTOMERS.map((customer) => customer.email),
      )
      .limit(1)
      .executeTakeFirst();
    const demo = users ? demoCustomer !== undefined : demoMode;
    await db
      .insertInto('bank_mode')
      .values({ demo })
      .onConflict((conflict) => conflict.column('only_row').doNothing())
      .execute();
  }
  const { demo } = await db.selectFrom('bank_mode').select('demo').executeTakeFirstOrThrow();
  if (demo !== demoMode) throw new Error(demo ? DEMO_DATABASE_MESSAGE : REAL_DATABASE_MESSAGE);
}

async function seedOnce(ctx: AppContext): Promise<DemoSignIn[]> {
  const { db, config } = ctx;
  await settleBankMode(db, config.demoMode);
  await ensureBankAccounts(db);
  const signIns: DemoSignIn[] = [];

  const adminEmail = config.adminEmail ?? 'admin@example.com';
  const existingAdmin = await db.selectFrom('users').select(['id', 'email']).where('is_admin', '=', true).orderBy('created_at').executeTakeFirst();
  if (!existingAdmin) {
    const password = config.adminPassword ?? (config.demoMode ? DEMO_ADMIN_PASSWORD : randomBytes(12).toString('base64url'));
    const created = await db
      .insertInto('users')
      .values({
        email: adminEmail,
        password_hash: await hashPassword(password),
        first_name: 'Bank',
        last_name: 'Administrator',
        is_admin: true,
        // The first staff member manages the others (ADR 022).
        staff_role: 'admin',
        staff_status: 'active',
        is_email_confirmed: true,
        verification_status: 'verified',
      })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    const secondFactor = created ? await enrolFirstAdmin(ctx, created.id, adminEmail) : { kind: 'none' as const };
    signIns.push({ role: 'admin', email: adminEmail, password: config.adminPassword ? null : password, secondFactor });
  } else {
    // Like ADMIN_TOTP_SECRET: read only when the first start creates the first admin.
    if (config.adminPassword)
      ctx.log.warn(`ADMIN_PASSWORD is ignored: the first admin (${existingAdmin.email}) exists already; they change their password under Security.`);
    if (config.adminEmail && config.adminEmail.toLowerCase() !== existingAdmin.email.toLowerCase())
      ctx.log.warn(`ADMIN_EMAIL (${config.adminEmail}) is ignored: the first admin exists already as ${existingAdmin.email}.`);
    const shown = !config.adminPassword && config.demoMode ? DEMO_ADMIN_PASSWORD : null;
    signIns.push({ role: 'admin', email: existingAdmin.email, password: shown, secondFactor: await firstAdminFactor(ctx, existingAdmin) });
  }

  if (!config.demoMode) return signIns;
  signIns.push(await seedSecondAdmin(ctx, signIns[0]));
  for (const customer of DEMO_CUSTOMERS) {
    const existing = await db.selectFrom('users').select('id').where('email', '=', customer.email).executeTakeFirst();
    if (!existing) {
      // Demo customers' opening balances are real entries from the bank's cash account, posted with the customer.
      await ctx.ledger.transaction(async (trx, post) => {
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
        const entries = await openingEntries(trx, created.id, customer.openingCents);
        if (entries.length > 0) await post(entries);
      });
    }
    signIns.push({ role: 'customer', email: customer.email, password: DEMO_CUSTOMER_PASSWORD });
  }
  return signIns;
}

/**
 * Demo mode's second staff member (issue 15, ADR 023), so the demo can show four eyes: an admin
 * with the first admin's password and authenticator secret (both published for the demo). Made
 * once; a later start prints it as it is.
 */
async function seedSecondAdmin(ctx: AppContext, first: DemoSignIn | undefined): Promise<DemoSignIn> {
  const { db, config } = ctx;
  const email = config.demoSecondAdminEmail;
  const firstAdmin = await db.selectFrom('users').select(['id', 'password_hash']).where('is_admin', '=', true).orderBy('created_at').executeTakeFirstOrThrow();
  const existing = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (!existing) {
    const created = await db
      .insertInto('users')
      .values({
        email,
        password_hash: firstAdmin.password_hash,
        first_name: 'Second',
        last_name: 'Approver',
        is_admin: true,
        staff_role: 'admin',
        staff_status: 'active',
        is_email_confirmed: true,
        verification_status: 'verified',
      })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    const totp = await db.selectFrom('totp_factors').select(['secret', 'confirmed_at']).where('user_id', '=', firstAdmin.id).executeTakeFirst();
    if (created && totp?.confirmed_at) {
      await db.insertInto('totp_factors').values({ user_id: created.id, secret: totp.secret, confirmed_at: new Date() }).execute();
    }
  }
  return {
    role: 'admin',
    email,
    password: first?.password ?? null,
    note: "             second staff member (four eyes): the first admin's password and authenticator app; approves at /admin/approvals",
  };
}
