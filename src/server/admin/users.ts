import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Expression, type SqlBool, sql } from 'kysely';
import {
  ADMIN_CANNOT_BE_DISABLED,
  type AdminDeleteResult,
  type AdminUserDto,
  type AdminUserList,
  type AdminUserRow,
  type ZAdminUserListQuery,
  type ZAdminUserUpdate,
} from '../../shared/contracts/admin';
import { formatCents } from '../../shared/money';
import { audit } from '../audit/audit';
import { endUserSessions } from '../auth/sessions';
import type { DB } from '../db/database';
import type { User } from '../db/schema';
import { discardFiles } from '../files/storage';
import { AppError, badRequest, conflict, notFound } from '../lib/errors';
import { plainMail } from '../mail/templates';
import { toUserDto } from '../users/service';
import { runUserClosedHooks } from './hooks';
import { tableExists } from './optional-tables';
import type { z } from 'zod';

type ListQuery = z.output<typeof ZAdminUserListQuery>;
type UpdateInput = z.output<typeof ZAdminUserUpdate>;

const USER_NOT_FOUND = 'User not found';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** LIKE treats % _ and \ as wildcards; what an admin types is matched literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * The search box: an account number (digits), a user id, or any part of a name or email. Every
 * branch is served by an index of the admin migration.
 */
function searchCondition(search: string): Expression<SqlBool> {
  const digits = search.replace(/[\s-]/g, '');
  if (/^\d{4,10}$/.test(digits)) {
    return sql<SqlBool>`u.id in (select owner_id from ledger_accounts where owner_id is not null and number like ${`${digits}%`})`;
  }
  if (UUID.test(search)) return sql<SqlBool>`u.id = ${search.toLowerCase()}::uuid`;
  const text = search.toLowerCase().replace(/\s+/g, ' ');
  if (text.length >= 3) {
    return sql<SqlBool>`lower(u.first_name || ' ' || u.last_name || ' ' || u.email) like ${`%${escapeLike(text)}%`}`;
  }
  // Shorter than one trigram: prefixes of the first name, last name or email.
  const prefix = `${escapeLike(text)}%`;
  return sql<SqlBool>`(lower(u.first_name) like ${prefix} or lower(u.last_name) like ${prefix} or u.email like ${prefix})`;
}

const SORT_COLUMNS = {
  createdAt: sql`u.created_at`,
  firstName: sql`lower(u.first_name)`,
  lastName: sql`lower(u.last_name)`,
  email: sql`u.email`,
} as const;

export async function listUsers(db: DB, query: ListQuery): Promise<AdminUserList> {
  const order = query.order ?? (query.sort === 'createdAt' ? 'desc' : 'asc');
  const direction = sql.raw(order);
  const where = query.search ? searchCondition(query.search) : sql<SqlBool>`true`;
  const offset = (query.page - 1) * query.pageSize;

  const sortKey = sql`${SORT_COLUMNS[query.sort]} ${direction}, u.id ${direction}`;
  // One round trip. Without a search the total is the users counter (kept exact by triggers, see
  // the admin-counters migration); with one, the matches are found once (trigram or prefix index)
  // and both counted and paged. The page's 20 rows are then joined to their account numbers.
  const source = query.search
    ? sql`with matches as materialized (select * from users u where ${where}),
          page as (select * from matches u order by ${sortKey} limit ${query.pageSize} offset ${offset})
          select t.total, u.*, a.number from (select count(*)::int as total from matches) t`
    : sql`with page as (select * from users u order by ${sortKey} limit ${query.pageSize} offset ${offset})
          select t.total, u.*, a.number from (select value::int as total from admin_counters where name = 'users') t`;
  const result = await sql<{
    total: number;
    id: string | null;
    first_name: string;
    last_name: string;
    email: string;
    number: string | null;
    is_admin: boolean;
    is_blocked: boolean;
    is_account_disabled: boolean;
    verification_status: AdminUserRow['verificationStatus'];
    closed_at: Date | null;
    created_at: Date;
  }>`
    ${source}
    left join page u on true
    left join ledger_accounts a on a.owner_id = u.id and a.kind = 'checking'
    order by ${sortKey}`.execute(db);
  const rows = { rows: result.rows.filter((row): row is typeof row & { id: string } => row.id !== null) };
  const total = result.rows[0]?.total ?? 0;

  return {
    items: rows.rows.map((row) => ({
      _id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      accountNumber: row.number,
      isAdmin: row.is_admin,
      isBlocked: row.is_blocked,
      isAccountDisabled: row.is_account_disabled,
      verificationStatus: row.verification_status,
      closedAt: row.closed_at ? new Date(row.closed_at).toISOString() : null,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    page: query.page,
    pageSize: query.pageSize,
    total,
  };
}

/** True once any posting touched one of the customer's accounts. */
export async function hasLedgerHistory(db: DB, userId: string): Promise<boolean> {
  if (!(await tableExists(db, 'postings'))) return false;
  const result = await sql<{ found: boolean }>`
    select exists (
      select 1 from postings p join ledger_accounts a on a.id = p.account_id where a.owner_id = ${userId}
    ) as found`.execute(db);
  return result.rows[0]?.found === true;
}

export async function toAdminUserDto(db: DB, user: User): Promise<AdminUserDto> {
  const dto = await toUserDto(db, user);
  return {
    ...dto,
    closedAt: user.closed_at ? new Date(user.closed_at).toISOString() : null,
    hasLedgerHistory: user.is_admin ? false : await hasLedgerHistory(db, user.id),
  };
}

export async function getUserById(db: DB, id: string): Promise<AdminUserDto> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!user) throw notFound(USER_NOT_FOUND);
  return toAdminUserDto(db, user);
}

export async function getUserByEmail(db: DB, email: string): Promise<AdminUserDto> {
  const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  if (!user) throw notFound(USER_NOT_FOUND);
  return toAdminUserDto(db, user);
}

type Snapshot = Record<string, unknown>;

function snapshot(user: User): Snapshot {
  return {
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    phone: user.phone,
    address: user.address,
    state: user.state,
    verificationStatus: user.verification_status,
    isBlocked: user.is_blocked,
    isAccountDisabled: user.is_account_disabled,
  };
}

function pick(source: Snapshot, keys: string[]): Snapshot {
  return Object.fromEntries(keys.map((key) => [key, source[key]]));
}

const LABELS: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  email: 'email address',
  phone: 'phone number',
  address: 'address',
  state: 'state',
  verificationStatus: 'verification status',
};

function brand(app: FastifyInstance) {
  return { bankName: app.config.bankName, publicUrl: app.config.publicUrl };
}

async function sendQuietly(app: FastifyInstance, to: string, subject: string, body: string): Promise<void> {
  // The change is committed; a mail server hiccup must not turn it into an error for the admin.
  await app.mailer.send(plainMail(brand(app), to, subject, body)).catch((error: unknown) => {
    app.log.error({ err: error }, 'admin notification mail failed');
  });
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

function isCheckViolation(error: unknown, constraint: string): boolean {
  const pgError = error as { code?: string; constraint?: string } | null;
  return pgError?.code === '23514' && pgError.constraint === constraint;
}

/**
 * PUT /user/admin/:id. Block and disable take effect at once: the session hook reads the flags on
 * every request, and disabling also ends every session the customer holds.
 */
export async function updateUser(app: FastifyInstance, request: FastifyRequest, id: string, input: UpdateInput): Promise<AdminUserDto> {
  const result = await app.db
    .transaction()
    .execute(async (trx) => {
      const user = await trx.selectFrom('users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!user) throw notFound(USER_NOT_FOUND);
      if (user.closed_at) throw conflict('This account is closed and can no longer be changed.');
      if (user.is_admin && input.isAccountDisabled) {
        throw new AppError('validation', ADMIN_CANNOT_BE_DISABLED, { isAccountDisabled: ADMIN_CANNOT_BE_DISABLED });
      }
      if (input.email !== user.email) {
        const taken = await trx.selectFrom('users').select('id').where('email', '=', input.email).where('id', '!=', id).executeTakeFirst();
        if (taken) throw new AppError('conflict', 'This email address is already used by another account.', { email: 'Already in use' });
      }
      const updated = await trx
        .updateTable('users')
        .set({
          first_name: input.firstName,
          last_name: input.lastName,
          email: input.email,
          phone: input.phone,
          address: input.location.address,
          state: input.location.state,
          verification_status: input.verificationStatus,
          is_blocked: input.isBlocked,
          is_account_disabled: input.isAccountDisabled,
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();

      const before = snapshot(user);
      const after = snapshot(updated);
      const changed = Object.keys(before).filter((key) => before[key] !== after[key]);
      const details = changed.filter((key) => key !== 'isBlocked' && key !== 'isAccountDisabled');
      const target = { targetUserId: id, targetType: 'user', targetId: id };
      // One audit row per kind of action, so the log can be filtered by "who blocked whom".
      if (details.length > 0) {
        await audit(trx, request, { action: 'user.update', ...target, before: pick(before, details), after: pick(after, details) });
      }
      if (changed.includes('isBlocked')) {
        await audit(trx, request, {
          action: updated.is_blocked ? 'user.block' : 'user.unblock',
          ...target,
          before: { isBlocked: user.is_blocked },
          after: { isBlocked: updated.is_blocked },
        });
      }
      if (changed.includes('isAccountDisabled')) {
        await audit(trx, request, {
          action: updated.is_account_disabled ? 'user.disable' : 'user.enable',
          ...target,
          before: { isAccountDisabled: user.is_account_disabled },
          after: { isAccountDisabled: updated.is_account_disabled },
        });
      }
      if (updated.is_account_disabled) await endUserSessions(trx, id);
      return { user, updated, changed, details };
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError('conflict', 'This email address is already used by another account.', { email: 'Already in use' });
      if (isCheckViolation(error, 'users_admin_never_disabled'))
        throw new AppError('validation', ADMIN_CANNOT_BE_DISABLED, { isAccountDisabled: ADMIN_CANNOT_BE_DISABLED });
      throw error;
    });

  const { user, updated, changed, details } = result;
  if (changed.length > 0 && !updated.is_admin) {
    const lines: string[] = [];
    if (details.length > 0) lines.push(`The bank updated your ${details.map((key) => LABELS[key] ?? key).join(', ')}.`);
    if (changed.includes('isBlocked')) {
      lines.push(
        updated.is_blocked
          ? 'Your account is blocked: outgoing payments are stopped until the bank lifts the block.'
          : 'The block on your account was lifted: you can make payments again.',
      );
    }
    if (changed.includes('isAccountDisabled')) {
      lines.push(
        updated.is_account_disabled ? 'Your online banking access is disabled and you were signed out.' : 'Your online banking access is enabled again.',
      );
    }
    const body = `Hello ${updated.first_name},\n\n${lines.join('\n')}\n\nIf you have questions, contact support.`;
    const recipients = new Set([user.email, updated.email]);
    for (const to of recipients) await sendQuietly(app, to, 'changes to your account', body);
  }
  return toAdminUserDto(app.db, updated);
}

/**
 * Identity documents and the profile picture are personal data: their rows go in the closing (or
 * deleting) transaction, their files from disk once it has committed.
 */
async function erasePersonalFiles(trx: DB, userId: string): Promise<string[]> {
  const files = await trx.selectFrom('stored_files').select('storage_name').where('owner_id', '=', userId).execute();
  await trx.deleteFrom('kyc_submissions').where('user_id', '=', userId).execute();
  await trx.deleteFrom('stored_files').where('owner_id', '=', userId).execute();
  return files.map((file) => file.storage_name);
}

/**
 * DELETE /user/admin/:id (DESIGN.md rule 6). A customer without ledger history is deleted; one with
 * history is closed: balances must be zero, sign-in stops, personal data is anonymized, entries stay.
 */
export async function deleteOrCloseUser(app: FastifyInstance, request: FastifyRequest, id: string): Promise<AdminDeleteResult> {
  if (request.user?.id === id) throw conflict('You cannot delete your own account.');
  const historyTable = await tableExists(app.db, 'postings');
  const outcome = await app.db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!user) throw notFound(USER_NOT_FOUND);
    if (user.is_admin) throw conflict('You cannot delete an admin account.');
    if (user.closed_at) throw conflict('This account is already closed.');
    const accounts = await trx
      .selectFrom('ledger_accounts')
      .select(['id', 'kind', 'number', 'balance'])
      .where('owner_id', '=', id)
      .orderBy('id')
      .forUpdate()
      .execute();
    const number = accounts[0]?.number ?? null;
    const history = historyTable
      ? (
          await sql<{
            found: boolean;
          }>`select exists (select 1 from postings where account_id in (select id from ledger_accounts where owner_id = ${id})) as found`.execute(trx)
        ).rows[0]?.found === true
      : false;

    if (!history) {
      // Other modules' rows (loans, KYC files...) may still point at the customer: then the
      // delete is refused by their foreign keys and the customer is closed instead.
      await sql`savepoint admin_delete`.execute(trx);
      try {
        const files = await erasePersonalFiles(trx, id);
        await trx.deleteFrom('ledger_accounts').where('owner_id', '=', id).execute();
        await trx.deleteFrom('users').where('id', '=', id).execute();
        await sql`release savepoint admin_delete`.execute(trx);
        await audit(trx, request, {
          action: 'user.delete',
          targetUserId: id,
          targetType: 'user',
          targetId: id,
          before: { accountNumber: number, createdAt: user.created_at },
          after: null,
        });
        return { kind: 'deleted' as const, user, files };
      } catch (error) {
        // 23503 foreign_key_violation (NO ACTION), 23001 restrict_violation (ON DELETE RESTRICT).
        const code = (error as { code?: string }).code;
        if (code !== '23503' && code !== '23001') throw error;
        await sql`rollback to savepoint admin_delete`.execute(trx);
      }
    }

    const nonZero = accounts.filter((account) => account.balance !== 0);
    if (nonZero.length > 0) {
      const balances = nonZero.map((account) => `${account.kind} ${formatCents(account.balance)}`).join(', ');
      throw conflict(`Balances must be zero before this account can be closed (${balances}). Move or pay out the money first.`);
    }
    // A customer who still owes the bank is not closed: the loan would be left with nobody to repay it.
    if (await tableExists(trx, 'loans')) {
      const owed = await trx
        .selectFrom('loans')
        .select(({ fn }) => [fn.sum<string>(sql`amount_cents - principal_repaid_cents`).as('cents'), fn.countAll<number>().as('loans')])
        .where('user_id', '=', id)
        .where('status', '=', 'approved')
        .where('repaid_at', 'is', null)
        .executeTakeFirst();
      if (owed && Number(owed.loans) > 0) {
        const loans = Number(owed.loans);
        throw conflict(
          `This customer still owes ${formatCents(Number(owed.cents))} on ${loans === 1 ? 'a loan' : `${loans} loans`}: it must be repaid before the account can be closed.`,
        );
      }
    }
    await trx
      .updateTable('users')
      .set({
        first_name: 'Closed',
        last_name: 'customer',
        email: `closed-${id}@closed.invalid`,
        password_hash: '!closed',
        phone: '',
        address: '',
        state: '',
        date_of_birth: null,
        sex: null,
        country_code: null,
        occupation: null,
        annual_income_range: null,
        ssn_tin: null,
        profile_picture: null,
        is_account_disabled: true,
        closed_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .execute();
    await endUserSessions(trx, id);
    await trx.deleteFrom('one_time_codes').where('user_id', '=', id).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', id).execute();
    await trx.deleteFrom('login_throttle').where('email', '=', user.email).execute();
    const files = await erasePersonalFiles(trx, id);
    await runUserClosedHooks(trx, id);
    // No personal data in the record: it would outlive the anonymization it documents.
    await audit(trx, request, {
      action: 'user.close',
      targetUserId: id,
      targetType: 'user',
      targetId: id,
      before: { closedAt: null, accountNumber: number, ledgerHistory: history },
      after: { closedAt: new Date().toISOString(), anonymized: true },
    });
    return { kind: 'closed' as const, user, files };
  });

  const { user } = outcome;
  await discardFiles(app, outcome.files);
  if (outcome.kind === 'deleted') {
    await sendQuietly(
      app,
      user.email,
      'your account was deleted',
      `Hello ${user.first_name},\n\nYour account was deleted at the bank's back office. No data about it is kept.`,
    );
    return { outcome: 'deleted', message: 'The customer had no ledger history and was deleted.' };
  }
  await sendQuietly(
    app,
    user.email,
    'your account was closed',
    `Hello ${user.first_name},\n\nYour account was closed. Sign-in no longer works and your personal data was removed; the record of past transactions is kept as the law requires.`,
  );
  return { outcome: 'closed', message: 'The customer had ledger history: the account was closed and personal data anonymized. Entries are kept.' };
}

export function assertUuid(id: string): void {
  if (!UUID.test(id)) throw badRequest('Not a valid id');
}
