import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject as injectProvided } from 'vitest';
import { addDays, todayIso } from '../../src/shared/dates';
import { buildApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config';
import { type AppContext, type Clock, createAppContext } from '../../src/server/context';
import { createDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { installJobSchema, runDueJobs } from '../../src/server/jobs/runner';
import { sealAll } from '../../src/server/ledger/sealer';
import { wakeLedgerNotifier } from '../../src/server/notifications/ledger-notifier';
import { createMailer, type Mailer } from '../../src/server/mail/mailer';
import { sentMail } from '../../src/server/mail/repository';
import { createLogger } from '../../src/server/lib/logger';
import { seed } from '../../src/server/seed';
import { TOTP_REPLAYED_MESSAGE } from '../../src/shared/contracts/factors';
import { nextStaffStep, STAFF_TOTP_SECRET, staffCode } from './totp';
import { newSigningKeyPem } from '../../src/server/signing/keys';
import { hashPassword } from '../../src/server/auth/crypto';
import { servingChannels } from '../../src/server/auth/session-cache';
import { STAFF_ROLE_LABELS, type StaffRole } from '../../src/shared/staff-roles';
import { file, jpegWithMetadata, multipart, pdf, png } from './multipart';

export interface TestContext {
  app: FastifyInstance;
  /** The dependencies the app was built from (services can be called with them directly). */
  context: AppContext;
  database: DatabaseHandle;
  databaseUrl: string;
  mailer: Mailer;
  config: Config;
  close(): Promise<void>;
}

/** A fresh database in the run's embedded PostgreSQL, migrated. */
export async function createTestDatabase(): Promise<{ url: string; name: string }> {
  const adminUrl = injectProvided('postgresAdminUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  return { url: adminUrl.replace(/\/postgres$/, `/${name}`), name };
}

/** Waits until `ready()` holds (every 10 ms, at most `timeoutMs`), else fails naming what it waited for. */
export async function waitFor(ready: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > until) throw new Error(`${what}: not ready within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Builds the real app on its own database; demo data seeded unless `seedDemo: false`. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    seedDemo?: boolean;
    rateLimits?: boolean;
    mailer?: Mailer;
    logStream?: NodeJS.WritableStream;
    /** Another app's database (two apps on one database, as two processes would be); default: a new one. */
    databaseUrl?: string;
    /** The app reaches its database through the URL this returns (a relay a test can cut). */
    via?: (url: string) => string | Promise<string>;
    /** The context's clock (a test moves time forward with it); the system clock by default. */
    clock?: Clock;
  } = {},
): Promise<TestContext> {
  const created = options.databaseUrl ?? (await createTestDatabase()).url;
  const url = options.via ? await options.via(created) : created;
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: `/tmp/ledgerline-test-data-${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'silent',
      // The first admin enrols the test secret: staff sign in with a code from it (staffSignIn below).
      ADMIN_TOTP_SECRET: STAFF_TOTP_SECRET,
      ...options.env,
    }),
    rateLimits: options.rateLimits ?? false,
  };
  const log = createLogger(config, options.logStream ? { stream: options.logStream, level: 'trace' } : { level: 'silent' });
  // As a serving process: the session cache is on (unless SESSION_CACHE=false), so every API test
  // runs with it, and serves from it once the listener is up (waited for below).
  const database = createDatabase(url, { max: 10, log, channels: servingChannels(config) });
  await migrateToLatest(database.db);
  await installJobSchema(database.pool, log);
  const mailer = options.mailer ?? createMailer({ from: config.mailFrom });
  const context = createAppContext({ config, db: database.db, mailer, log, clock: options.clock, notices: database.notices });
  if (config.sessionCache) await waitFor(() => database.notices.listening, 'the session listener');
  if (options.seedDemo !== false) await seed(context);
  const app = await buildApp(context);
  await app.ready();
  return {
    app,
    context,
    database,
    databaseUrl: url,
    mailer,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

let signingKeyFile: string | undefined;

/** A BANK_SIGNING_KEY_FILE for tests that start as production (which refuses to start without one). */
export function testSigningKeyFile(): string {
  if (!signingKeyFile) {
    signingKeyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-test-key-')), 'signing-key.pem');
    fs.writeFileSync(signingKeyFile, newSigningKeyPem(), { mode: 0o600 });
  }
  return signingKeyFile;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API tests read loosely typed JSON bodies
export const json = <T = any>(response: LightMyRequestResponse): T => response.json() as T;

/**
 * Runs every background job that is due (mail delivery first of all) until none is left: the
 * deterministic stand-in for the runner and the sealer a server starts (so money notifications
 * are delivered too). Jobs waiting for a later retry stay.
 */
export async function drainJobs(ctx: TestContext): Promise<void> {
  // What a running server's sealer does in the background: chain what is committed and wake the
  // job that notifies customers of it (ADR 013).
  await sealAll(ctx.database.db);
  await wakeLedgerNotifier(ctx.context);
  await runDueJobs(ctx.context, ctx.database.pool);
}

export interface DeliveredMail {
  id: number;
  to: string;
  subject: string;
  text: string;
}

/** The mail delivered so far (after draining the jobs), newest first, as /dev/mailbox lists it. */
export async function mailbox(ctx: TestContext): Promise<DeliveredMail[]> {
  await drainJobs(ctx);
  const rows = await sentMail(ctx.database.db, 1000);
  return rows.map((row) => ({ id: row.id, to: row.to_address, subject: row.subject, text: row.body }));
}

/** The newest code mailed to an address (after draining the jobs). */
export async function lastCode(ctx: TestContext, to: string): Promise<string> {
  const message = (await mailbox(ctx)).find((entry) => entry.to === to && /\b\d{6}\b/.test(entry.text));
  const code = message?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

export const validSignUp = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Dana',
  lastName: 'Rivera',
  email: `dana.${randomBytes(4).toString('hex')}@example.com`,
  address: '1 Main Street, Springfield',
  dateOfBirth: '1990-05-17',
  sex: 'Female',
  countryCode: '1',
  phone: '+1 202 555 0101',
  occupation: 'private',
  annualIncomeRange: '$30,000.00 - $70,000.00',
  accountType: 'Savings',
  password: 'Violet-Harbor-42',
  confirmPassword: 'Violet-Harbor-42',
  ...overrides,
});

/** Signs up, verifies the email with the mailed code, and returns a bearer token for the customer. */
export async function createCustomer(
  ctx: TestContext,
  overrides: Record<string, unknown> = {},
): Promise<{ token: string; userId: string; email: string; password: string; accountNumber: string }> {
  const body = validSignUp(overrides);
  const signUp = await ctx.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body });
  if (signUp.statusCode !== 201) throw new Error(`sign-up failed: ${signUp.body}`);
  const token = await signIn(ctx, body.email, body.password);
  const verified = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/verify-email',
    headers: { authorization: `Bearer ${token}` },
    payload: { otp: await lastCode(ctx, body.email) },
  });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  const user = json(verified).data;
  return { token, userId: user._id, email: body.email, password: body.password, accountNumber: user.account.number };
}

/** Signs in an account without a second factor (a customer as the tests make them): its session token. */
export async function signIn(ctx: TestContext, email: string, password: string): Promise<string> {
  const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
  const data = json(response).data;
  if (!data.token) throw new Error(`sign-in of ${email} asks for a second factor (${data.secondFactor?.methods}): use staffSignIn`);
  return data.token as string;
}

/** The newest TOTP step each staff member signed in with, per database: the next sign-in must use a later one. */
const stepsUsed = new Map<string, number>();

/**
 * A staff sign-in as the back office makes it: password (a ticket comes back), then a code from
 * the test secret's authenticator app. A code is accepted once, so two sign-ins of the same staff
 * member never type the same step's code: the second uses the next step's code (still within the
 * server's window) or waits for it, as a person would.
 */
export async function staffSignIn(
  ctx: TestContext,
  credentials: { email: string; password: string } = adminCredentials(ctx),
  options: { secret?: string; url?: string } = {},
): Promise<{ token: string; user: Record<string, unknown> }> {
  const first = await ctx.app.inject({ method: 'POST', url: options.url ?? '/api/auth/admin/signin', payload: credentials });
  if (first.statusCode !== 200) throw new Error(`staff sign-in failed: ${first.body}`);
  const ticket = json(first).data.secondFactor?.ticket as string | undefined;
  if (!ticket) throw new Error(`staff sign-in of ${credentials.email} answered no ticket: ${first.body}`);
  const key = `${ctx.databaseUrl}|${credentials.email}`;
  const secondStep = `${options.url ?? '/api/auth/admin/signin'}/totp`;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const { step, waitMs } = nextStaffStep(stepsUsed.get(key), ctx.context.clock.now());
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    stepsUsed.set(key, step);
    const response = await ctx.app.inject({ method: 'POST', url: secondStep, payload: { ticket, code: staffCode(step, options.secret) } });
    if (response.statusCode === 200) return json(response).data;
    // Another process (a second app on this database) took the step first: the next one, then.
    if (!json(response).message?.startsWith(TOTP_REPLAYED_MESSAGE)) throw new Error(`staff second step failed: ${response.body}`);
  }
  throw new Error(`staff sign-in of ${credentials.email}: every code was refused as used`);
}

export const adminCredentials = (ctx: TestContext) => ({
  email: ctx.config.adminEmail ?? 'admin@example.com',
  password: ctx.config.adminPassword ?? 'Ledgerline-Admin-2026',
});

/** The staff sessions each test app reuses while they are live, by role (a new one needs a new TOTP step: up to 30 s). */
const adminSessions = new WeakMap<TestContext, Map<StaffRole, string>>();

export const TEST_STAFF_PASSWORD = 'Staff-Member-Test-2026';
/** The test staff member of a role other than the first admin's (created on first use). */
export const testStaffEmail = (role: StaffRole) => `${role}.staff@example.com`;

/**
 * A staff member of the role, active, signing in with TEST_STAFF_PASSWORD and the test TOTP secret:
 * made directly in the database (the invitation journey has its own tests). Idempotent per email.
 */
export async function createStaff(ctx: TestContext, role: StaffRole, email = testStaffEmail(role)): Promise<{ id: string; email: string; password: string }> {
  const existing = await ctx.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) return { id: existing.id, email, password: TEST_STAFF_PASSWORD };
  const created = await ctx.database.db
    .insertInto('users')
    .values({
      email,
      password_hash: await hashPassword(TEST_STAFF_PASSWORD),
      first_name: STAFF_ROLE_LABELS[role],
      last_name: 'Staff',
      is_admin: true,
      staff_role: role,
      staff_status: 'active',
      is_email_confirmed: true,
      verification_status: 'verified',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ctx.database.db.insertInto('totp_factors').values({ user_id: created.id, secret: STAFF_TOTP_SECRET, confirmed_at: new Date() }).execute();
  return { id: created.id, email, password: TEST_STAFF_PASSWORD };
}

/**
 * A live staff session, signed in through ticket and TOTP: the first admin's unless a role is
 * named (then a test staff member of that role, made on first use). The app's cached session
 * while it answers, else a new sign-in (`fresh: true` always signs in anew).
 */
export async function adminToken(ctx: TestContext, options: { fresh?: boolean; role?: StaffRole } = {}): Promise<string> {
  const role = options.role ?? 'admin';
  const sessions = adminSessions.get(ctx) ?? new Map<StaffRole, string>();
  adminSessions.set(ctx, sessions);
  const cached = sessions.get(role);
  if (cached && !options.fresh) {
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(cached) });
    if (me.statusCode === 200) return cached;
  }
  const credentials = options.role && options.role !== 'admin' ? await createStaff(ctx, options.role) : adminCredentials(ctx);
  const { token } = await staffSignIn(ctx, credentials);
  if (!options.fresh) sessions.set(role, token);
  return token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A value date relative to today (staff value dates must lie within a window around today). */
export const valueDate = (daysFromToday = 0): string => addDays(todayIso(), daysFromToday);

/** Sends a complete identity verification as the customer would (the documents of the KYC form); the customer is then pending review. */
export async function submitKyc(ctx: TestContext, token: string): Promise<void> {
  const body = multipart({
    passportImageFile: file('passport.jpg', 'image/jpeg', await jpegWithMetadata()),
    documentType: 'passport',
    documentFile: file('id.pdf', 'application/pdf', pdf()),
    proofOfAddressFile: file('bill.png', 'image/png', await png()),
    dateOfBirth: '1990-05-17',
  });
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/user/verification',
    headers: { authorization: `Bearer ${token}`, ...body.headers },
    payload: body.payload,
  });
  if (response.statusCode !== 201) throw new Error(`KYC submission answered ${response.statusCode}: ${response.body}`);
}

// ---------------------------------------------------------------- four eyes (ADR 023)

/** The second staff member demo mode seeds (DEMO_SECOND_ADMIN_EMAIL), with the first admin's password and authenticator secret. */
export const secondAdminCredentials = (ctx: TestContext) => ({ email: ctx.config.demoSecondAdminEmail, password: adminCredentials(ctx).password });

const secondAdminSessions = new WeakMap<TestContext, string>();

/**
 * A session of the second staff member. An app started without demo mode has none, so one is made
 * as demo mode makes it (the first admin's password hash and authenticator secret).
 */
export async function secondAdminToken(ctx: TestContext): Promise<string> {
  const cached = secondAdminSessions.get(ctx);
  if (cached) {
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/user', headers: bearer(cached) });
    if (me.statusCode === 200) return cached;
  }
  const db = ctx.database.db;
  const credentials = secondAdminCredentials(ctx);
  if (!(await db.selectFrom('users').select('id').where('email', '=', credentials.email).executeTakeFirst())) {
    const first = await db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', adminCredentials(ctx).email).executeTakeFirstOrThrow();
    const created = await db
      .insertInto('users')
      .values({
        email: credentials.email,
        password_hash: first.password_hash,
        first_name: 'Second',
        last_name: 'Approver',
        is_admin: true,
        staff_role: 'admin',
        staff_status: 'active',
        is_email_confirmed: true,
        verification_status: 'verified',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const totp = await db.selectFrom('totp_factors').select('secret').where('user_id', '=', first.id).executeTakeFirstOrThrow();
    await db.insertInto('totp_factors').values({ user_id: created.id, secret: totp.secret, confirmed_at: new Date() }).execute();
  }
  const { token } = await staffSignIn(ctx, credentials);
  secondAdminSessions.set(ctx, token);
  return token;
}

/** The second staff member approves a pending request: the approve call's answer. */
export async function approveAsSecondStaff(ctx: TestContext, approvalId: string): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'POST', url: `/api/admin/approvals/${approvalId}/approve`, headers: bearer(await secondAdminToken(ctx)) });
}

/**
 * THE way tests make a staff change that four eyes holds (credits, debits, corrections,
 * reversals, unblocks, closures, large loans): the call as given (by the first admin, whose token
 * the options carry) and, when it answers 202 pending, the second staff member's approval. It
 * answers what the change answered once carried out (the approval's stored outcome: status, data,
 * message), so a test that funds a customer keeps its meaning. Any other answer of the call (a
 * 400, a 404...) comes back as it is, and so does a refused approval (409).
 */
export async function staffCall(ctx: TestContext, options: InjectOptions): Promise<LightMyRequestResponse> {
  const requested = await ctx.app.inject(options);
  if (requested.statusCode !== 202) return requested;
  const approved = await approveAsSecondStaff(ctx, json(requested).data.approvalId);
  if (approved.statusCode !== 200) return approved;
  const { status, ...body } = json(approved).data.outcome as { status: number; data: unknown; message?: string };
  const text = JSON.stringify(body);
  return { ...approved, statusCode: status, body: text, payload: text, json: () => JSON.parse(text) as unknown } as LightMyRequestResponse;
}

/**
 * A staff credit or debit on a customer's account (POST /api/transaction/admin/:userId by the
 * first admin, held by four eyes and approved by the second staff member through `staffCall`), as
 * a test sets up its books: throws with the answer unless it was carried out (201); answers the
 * posted entry's id. The value date is today unless given.
 */
export async function staffEntry(
  ctx: TestContext,
  userId: string,
  transactionType: 'credit' | 'debit',
  dollars: number,
  {
    date = valueDate(),
    description = 'Test funding',
    account = 'checking',
    reason = 'test setup',
  }: { date?: string; description?: string; account?: 'savings' | 'checking'; reason?: string } = {},
): Promise<string> {
  const response = await staffCall(ctx, {
    method: 'POST',
    url: `/api/transaction/admin/${userId}`,
    headers: { ...bearer(await adminToken(ctx)), 'idempotency-key': `staff-entry-${randomBytes(12).toString('hex')}` },
    payload: { amount: dollars, transactionType, date, description, reason, account },
  });
  if (response.statusCode !== 201) throw new Error(`a staff ${transactionType} for ${userId} answered ${response.statusCode}: ${response.body}`);
  return json<{ data: { entryId: string } }>(response).data.entryId;
}

/** A customer's two ledger account ids. */
export async function customerAccountIds(ctx: TestContext, userId: string): Promise<{ savings: string; checking: string }> {
  const rows = await ctx.database.db.selectFrom('ledger_accounts').select(['id', 'kind']).where('owner_id', '=', userId).execute();
  const idOf = (kind: 'savings' | 'checking') => {
    const row = rows.find((each) => each.kind === kind);
    if (!row) throw new Error(`customer ${userId} has no ${kind} account`);
    return row.id;
  };
  return { savings: idOf('savings'), checking: idOf('checking') };
}

/** Credits a customer's account today as staff do (a `staffEntry` credit), so the customer has money to move. */
export async function fund(
  ctx: TestContext,
  userId: string,
  dollars: number,
  { account = 'checking', description = 'Test funding' }: { account?: 'savings' | 'checking'; description?: string } = {},
): Promise<void> {
  await staffEntry(ctx, userId, 'credit', dollars, { account, description });
}
