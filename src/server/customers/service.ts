import type { z } from 'zod';
import {
  ADMIN_CANNOT_BE_DISABLED,
  type AdminDeleteResult,
  type AdminUserDto,
  type AdminUserList,
  type ZAdminUserListQuery,
  type ZAdminUserUpdate,
} from '../../shared/contracts/admin';
import { SESSION_ENDED_MESSAGE, type SessionDto, type SessionsEnded } from '../../shared/contracts/sessions';
import { formatCents } from '../../shared/money';
import type { ApprovalPending } from '../../shared/contracts/approvals';
import { type ApprovalGate, needsApproval, requestApproval } from '../approvals/request';
import { audit, eraseAuditPersonalData } from '../audit/audit';
import { eraseCredentials } from '../auth/repository';
import { eraseFactors } from '../factors/repository';
import { endSessionOf, endUserSessions, sessionsOf } from '../auth/sessions';
import { type ActorContext, type AppContext, withDb } from '../context';
import type { DB } from '../db/database';
import { isCheckViolation, isUniqueViolation } from '../db/errors';
import type { User, VerificationStatus } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { eraseOwnerFiles } from '../files/repository';
import { discardFiles } from '../files/service';
import { eraseCustomerKyc, lockPendingSubmission } from '../kyc/repository';
import { recordDecision, STATUS_SET_REASON } from '../kyc/service';
import { eraseNotes } from '../timeline/repository';
import { deleteCustomerAccounts, hasLedgerHistory, lockCustomerAccounts } from '../ledger/accounts';
import { isUuid } from '../ledger/uuid';
import { AppError, badRequest, conflict, forbidden, notFound } from '../lib/errors';
import { mayChangeUser, ROLES, roleMayUse, STAFF_ACCOUNT_NEEDS_ADMIN, type StaffRole } from '../../shared/staff-roles';
import type { Outcome } from '../lib/outcome';
import { amountOwed } from '../loans/repository';
import { queueMail } from '../mail/outbox';
import { brandOf, plainMail } from '../mail/templates';
import { toUserDto } from '../users/service';
import * as repository from './repository';

// The back office's customers (spec section 5; DESIGN.md rule 6): the list, one customer, staff
// edits with their effects, and closing or deleting.

type ListQuery = z.output<typeof ZAdminUserListQuery>;
type UpdateInput = z.output<typeof ZAdminUserUpdate>;

export const USER_NOT_FOUND = 'User not found';
export const CUSTOMER_KEY_INVALID = 'Customer must be a user id, an email address or a 10-digit account number';
export const USER_UPDATED_MESSAGE = 'User updated successfully';
const EMAIL_IN_USE = () => new AppError('conflict', 'This email address is already used by another account.', { email: 'Already in use' });
const ADMIN_NOT_DISABLED = () => new AppError('validation', ADMIN_CANNOT_BE_DISABLED, { isAccountDisabled: ADMIN_CANNOT_BE_DISABLED });

/** How staff name a customer in a filter (the journal's, the audit log's): what they have at hand. */
export function customerKey(text: string): repository.CustomerKey {
  if (isUuid(text)) return { id: text.toLowerCase() };
  if (/^\d{10}$/.test(text)) return { number: text };
  if (text.includes('@')) return { email: text.toLowerCase() };
  throw badRequest(CUSTOMER_KEY_INVALID, { customer: 'Not recognised' });
}

export async function listCustomers(ctx: AppContext, query: ListQuery): Promise<AdminUserList> {
  const order = query.order ?? (query.sort === 'createdAt' ? 'desc' : 'asc');
  const result = await repository.listUsers(ctx.db, { ...query, order });
  return {
    ...result,
    items: result.items.map((row) => ({
      _id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      accountNumber: row.number,
      isAdmin: row.is_admin,
      staffRole: row.staff_role,
      isBlocked: row.is_blocked,
      isAccountDisabled: row.is_account_disabled,
      verificationStatus: row.verification_status,
      closedAt: row.closed_at ? new Date(row.closed_at).toISOString() : null,
      createdAt: new Date(row.created_at).toISOString(),
    })),
  };
}

/** The spec's user object plus what only staff see. */
async function toAdminUserDto(db: DB, user: User): Promise<AdminUserDto> {
  return {
    ...(await toUserDto(db, user)),
    closedAt: user.closed_at ? new Date(user.closed_at).toISOString() : null,
    hasLedgerHistory: user.is_admin ? false : await hasLedgerHistory(db, user.id),
  };
}

export async function customerById(ctx: AppContext, id: string): Promise<AdminUserDto> {
  const user = await repository.findUser(ctx.db, id);
  if (!user) throw notFound(USER_NOT_FOUND);
  return toAdminUserDto(ctx.db, user);
}

export async function customerByEmail(ctx: AppContext, email: string): Promise<AdminUserDto> {
  const user = await repository.findUserByEmail(ctx.db, email);
  if (!user) throw notFound(USER_NOT_FOUND);
  return toAdminUserDto(ctx.db, user);
}

// ---------------------------------------------------------------- a customer's sessions

/** Where a customer is signed in (staff see no token, only what the customer sees). */
export async function customerSessions(ctx: AppContext, id: string): Promise<SessionDto[]> {
  if (!(await repository.findUser(ctx.db, id))) throw notFound(USER_NOT_FOUND);
  return sessionsOf(ctx, id, null);
}

/** Staff end one of a customer's sessions (a stolen one, say): audited with what it was. */
export async function endCustomerSession(ctx: ActorContext, id: string, sessionId: string): Promise<Outcome<SessionsEnded>> {
  const user = await repository.findUser(ctx.db, id);
  if (!user) throw notFound(USER_NOT_FOUND);
  assertMayChangeUser(ctx, user);
  await inTransaction(ctx.db, async (trx) => {
    const ended = await endSessionOf(withDb(ctx, trx), id, sessionId);
    await audit(trx, ctx.actor, {
      action: 'session.end',
      targetUserId: id,
      targetType: 'session',
      targetId: sessionId,
      before: { device: ended.device, ipAddress: ended.ipAddress, createdAt: ended.createdAt, lastSeenAt: ended.lastSeenAt },
      after: { ended: true },
    });
  });
  return { data: { ended: 1 }, message: SESSION_ENDED_MESSAGE };
}

// ---------------------------------------------------------------- staff edits

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

const pick = (source: Snapshot, keys: string[]): Snapshot => Object.fromEntries(keys.map((key) => [key, source[key]]));

const LABELS: Record<string, string> = {
  firstName: 'first name',
  lastName: 'last name',
  email: 'email address',
  phone: 'phone number',
  address: 'address',
  state: 'state',
  verificationStatus: 'verification status',
};

interface Change {
  before: User;
  after: User;
  /** Every snapshot key that changed; `details` are those other than the block and disable flags. */
  changed: string[];
  details: string[];
}

function diff(before: User, after: User): Change {
  const old = snapshot(before);
  const now = snapshot(after);
  const changed = Object.keys(old).filter((key) => old[key] !== now[key]);
  return { before, after, changed, details: changed.filter((key) => key !== 'isBlocked' && key !== 'isAccountDisabled') };
}

/** One audit row per kind of action, so the log can be filtered by "who blocked whom". */
async function auditChange(trx: DB, ctx: ActorContext, { before, after, changed, details }: Change): Promise<void> {
  const target = { targetUserId: after.id, targetType: 'user', targetId: after.id };
  if (details.length > 0) {
    await audit(trx, ctx.actor, { action: 'user.update', ...target, before: pick(snapshot(before), details), after: pick(snapshot(after), details) });
  }
  if (changed.includes('isBlocked')) {
    await audit(trx, ctx.actor, {
      action: after.is_blocked ? 'user.block' : 'user.unblock',
      ...target,
      before: { isBlocked: before.is_blocked },
      after: { isBlocked: after.is_blocked },
    });
  }
  if (changed.includes('isAccountDisabled')) {
    await audit(trx, ctx.actor, {
      action: after.is_account_disabled ? 'user.disable' : 'user.enable',
      ...target,
      before: { isAccountDisabled: before.is_account_disabled },
      after: { isAccountDisabled: after.is_account_disabled },
    });
  }
}

/** The customer hears of every change, at the old address and the new one (queued on ctx.db: the change's transaction). */
async function notifyChange(ctx: AppContext, { before, after, changed, details }: Change): Promise<void> {
  if (changed.length === 0 || after.is_admin) return;
  const lines: string[] = [];
  if (details.length > 0) lines.push(`The bank updated your ${details.map((key) => LABELS[key] ?? key).join(', ')}.`);
  if (changed.includes('isBlocked')) {
    lines.push(
      after.is_blocked
        ? 'Your account is blocked: outgoing payments are stopped until the bank lifts the block.'
        : 'The block on your account was lifted: you can make payments again.',
    );
  }
  if (changed.includes('isAccountDisabled')) {
    lines.push(after.is_account_disabled ? 'Your online banking access is disabled and you were signed out.' : 'Your online banking access is enabled again.');
  }
  const body = `Hello ${after.first_name},\n\n${lines.join('\n')}\n\nIf you have questions, contact support.`;
  for (const to of new Set([before.email, after.email])) {
    await queueMail(ctx, plainMail(brandOf(ctx.config), to, 'changes to your account', body));
  }
}

export const NO_DOCUMENTS_TO_REVIEW = 'There are no identity documents waiting for review: the status can be "pending" only while there are.';
export const DECIDE_DOCUMENTS_FIRST = 'Identity documents are waiting for review: approve them (verified) or reject them (failed) first.';

/**
 * The verification status and the KYC decision never disagree (issue 15). Setting the status to
 * verified or failed while documents wait for review records that decision on them (audited, the
 * customer emailed, as the review queue does); "pending" needs documents waiting, and "awaiting"
 * cannot leave them undecided. Answers whether a decision was recorded. Locks the pending
 * submission after the user (the order the review queue locks them in).
 */
async function agreeWithSubmission(ctx: ActorContext, user: User, status: VerificationStatus): Promise<boolean> {
  if (status === user.verification_status || user.is_admin) return false;
  const pending = await lockPendingSubmission(ctx.db, user.id);
  if (status === 'pending' && !pending) throw conflict(NO_DOCUMENTS_TO_REVIEW, { verificationStatus: NO_DOCUMENTS_TO_REVIEW });
  if (status === 'awaiting' && pending) throw conflict(DECIDE_DOCUMENTS_FIRST, { verificationStatus: DECIDE_DOCUMENTS_FIRST });
  if ((status === 'verified' || status === 'failed') && pending) {
    await recordDecision(ctx, pending, user, status, status === 'failed' ? STATUS_SET_REASON : null);
    return true;
  }
  return false;
}

export const DETAILS_NEED_SUPPORT = "Your role cannot change a customer's details: it needs Support or Admin.";
export const FLAGS_NEED_COMPLIANCE = 'Your role cannot change verification, blocks or access: it needs Compliance or Admin.';

/**
 * The route admits support and compliance (ADR 022); what each may change is decided by what the
 * request actually changes: a customer's details are support's, the verification status, the block
 * and the access are compliance's. The form sends every field: unchanged ones are no change.
 */
function assertMayChangeUser(ctx: ActorContext, user: User): void {
  if (!mayChangeUser(ctx.actor.user.staff_role, { isAdmin: user.is_admin })) throw forbidden(STAFF_ACCOUNT_NEEDS_ADMIN);
}

function assertRoleMayChange(role: StaffRole | null, user: User, input: UpdateInput): void {
  const detailsChange =
    input.firstName !== user.first_name ||
    input.lastName !== user.last_name ||
    input.email !== user.email ||
    input.phone !== user.phone ||
    input.location.address !== user.address ||
    input.location.state !== user.state;
  const flagsChange =
    input.verificationStatus !== user.verification_status || input.isBlocked !== user.is_blocked || input.isAccountDisabled !== user.is_account_disabled;
  if (detailsChange && !roleMayUse(role, ROLES.customerService)) throw forbidden(DETAILS_NEED_SUPPORT);
  if (flagsChange && !roleMayUse(role, ROLES.compliance)) throw forbidden(FLAGS_NEED_COMPLIANCE);
}

/**
 * PUT /user/admin/:id. Block and disable take effect at once: the session hook reads the flags on
 * every request, and disabling also ends every session the customer holds.
 */
export async function updateCustomer(ctx: ActorContext, id: string, requested: UpdateInput): Promise<Outcome<AdminUserDto | ApprovalPending>> {
  let lifting: Lifting | null = null;
  const change = await inTransaction(ctx.db, async (trx) => {
    const user = await repository.lockUser(trx, id);
    if (!user) throw notFound(USER_NOT_FOUND);
    if (user.closed_at) throw conflict('This account is closed and can no longer be changed.');
    assertMayChangeUser(ctx, user);
    if (user.is_admin && requested.isAccountDisabled) throw ADMIN_NOT_DISABLED();
    assertRoleMayChange(ctx.actor.user.staff_role, user, requested);
    // Blocking and disabling protect, so they take effect at once; lifting either waits for a
    // second staff member (ADR 023), while the rest of the edit is made now.
    lifting = needsApproval(ctx, undefined) ? liftingOf(user, requested) : null;
    const input = lifting ? { ...requested, isBlocked: user.is_blocked, isAccountDisabled: user.is_account_disabled } : requested;
    if (input.email !== user.email && (await repository.emailTakenByAnother(trx, input.email, id))) throw EMAIL_IN_USE();
    const decided = await agreeWithSubmission(withDb(ctx, trx), user, input.verificationStatus);
    const { location, ...details } = input;
    const updated = await repository.updateUser(trx, id, { ...details, address: location.address, state: location.state });
    const change = diff(user, updated);
    // A decision on the pending documents was audited and mailed as one: not again as a detail.
    if (decided) {
      change.changed = change.changed.filter((key) => key !== 'verificationStatus');
      change.details = change.details.filter((key) => key !== 'verificationStatus');
    }
    await auditChange(trx, ctx, change);
    if (updated.is_account_disabled) await endUserSessions(trx, id);
    await notifyChange(withDb(ctx, trx), change);
    return change;
  }).catch((error: unknown) => {
    // Two edits racing for one address, or an admin disabled behind the check: the database decides.
    if (isUniqueViolation(error, repository.EMAIL_UNIQUE_CONSTRAINT)) throw EMAIL_IN_USE();
    if (isCheckViolation(error, repository.ADMIN_NEVER_DISABLED_CONSTRAINT)) throw ADMIN_NOT_DISABLED();
    throw error;
  });
  const lift = lifting as Lifting | null;
  if (lift) {
    const kind = lift.isAccountDisabled === false ? 'customer_enable' : 'customer_unblock';
    const summary = [lift.isAccountDisabled === false ? 'Re-enable online banking access' : '', lift.isBlocked === false ? 'Lift the block on payments' : '']
      .filter(Boolean)
      .join(' and ');
    // What the staff member is told says what was done now and what waits, not "updated" alone.
    const waits = [lift.isAccountDisabled === false ? 're-enabling access' : '', lift.isBlocked === false ? 'lifting the block' : '']
      .filter(Boolean)
      .join(' and ');
    const asked = change.changed.length > 0 ? `User updated, except ${waits}` : `${waits.charAt(0).toUpperCase()}${waits.slice(1)} requested`;
    return requestApproval(ctx, { kind, customerId: id, summary, payload: { ...lift } }, null, asked);
  }
  return { data: await toAdminUserDto(ctx.db, change.after), message: USER_UPDATED_MESSAGE };
}

/** What an edit lifts: a block, a disabled access, or both (false); null when it lifts nothing. */
interface Lifting {
  isBlocked?: false;
  isAccountDisabled?: false;
}

function liftingOf(user: User, input: UpdateInput): Lifting | null {
  const lifting: Lifting = {};
  if (user.is_blocked && !input.isBlocked) lifting.isBlocked = false;
  if (user.is_account_disabled && !input.isAccountDisabled) lifting.isAccountDisabled = false;
  return Object.keys(lifting).length > 0 ? lifting : null;
}

/** An approved unblock or re-enable (four eyes): the flags the request lifted, audited and told as any edit is. */
export async function liftRestrictions(ctx: ActorContext, id: string, lifting: Lifting, gate: ApprovalGate): Promise<Outcome<AdminUserDto>> {
  const change = await inTransaction(ctx.db, async (trx) => {
    await gate.claim(trx);
    const user = await repository.lockUser(trx, id);
    if (!user) throw notFound(USER_NOT_FOUND);
    if (user.closed_at) throw conflict('This account is closed and can no longer be changed.');
    const updated = await trx
      .updateTable('users')
      .set({ is_blocked: lifting.isBlocked ?? user.is_blocked, is_account_disabled: lifting.isAccountDisabled ?? user.is_account_disabled })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const change = diff(user, updated);
    await auditChange(trx, ctx, change);
    await notifyChange(withDb(ctx, trx), change);
    return change;
  });
  return { data: await toAdminUserDto(ctx.db, change.after), message: USER_UPDATED_MESSAGE };
}

// ---------------------------------------------------------------- closing and deleting

type Ending = { kind: 'deleted' | 'closed'; user: User; files: string[] };

/**
 * A customer no entry ever touched is deleted with their accounts, identity documents and files.
 * Another domain's row (a loan application...) may still hold them: then nothing is deleted and
 * the customer is closed instead.
 */
async function deleteWithoutHistory(trx: DB, ctx: ActorContext, user: User, accountNumber: string | null): Promise<Ending | undefined> {
  const files = await repository.unlessReferenced(trx, async () => {
    await eraseCustomerKyc(trx, user.id);
    const files = await eraseOwnerFiles(trx, user.id);
    await deleteCustomerAccounts(trx, user.id);
    await repository.deleteUser(trx, user.id);
    return files;
  });
  if (!files) return undefined;
  await eraseAuditPersonalData(trx, user.id);
  await audit(trx, ctx.actor, {
    action: 'user.delete',
    targetUserId: user.id,
    targetType: 'user',
    targetId: user.id,
    before: { accountNumber, createdAt: user.created_at },
    after: null,
  });
  return { kind: 'deleted', user, files };
}

/** Closing: zero balances and no open loan first; then sign-in stops and personal data goes, entries stay. */
async function close(trx: DB, ctx: ActorContext, user: User, accounts: Awaited<ReturnType<typeof lockCustomerAccounts>>, history: boolean): Promise<Ending> {
  await assertClosable(trx, user, accounts);
  await repository.anonymizeUser(trx, user.id);
  await endUserSessions(trx, user.id);
  await eraseCredentials(trx, user.id, user.email);
  await eraseFactors(trx, user.id);
  await eraseCustomerKyc(trx, user.id);
  await eraseNotes(trx, user.id);
  const files = await eraseOwnerFiles(trx, user.id);
  // Earlier audit records keep their place on the audit chain, without the personal data (ADR 014).
  await eraseAuditPersonalData(trx, user.id);
  // No personal data in the record: it would outlive the anonymization it documents.
  await audit(trx, ctx.actor, {
    action: 'user.close',
    targetUserId: user.id,
    targetType: 'user',
    targetId: user.id,
    before: { closedAt: null, accountNumber: accounts[0]?.number ?? null, ledgerHistory: history },
    after: { closedAt: ctx.clock.now().toISOString(), anonymized: true },
  });
  return { kind: 'closed', user, files };
}

/** What must hold before a customer is closed (checked when it is asked for, and again when it is approved). */
async function assertClosable(trx: DB, user: User, accounts: Awaited<ReturnType<typeof lockCustomerAccounts>>): Promise<void> {
  const nonZero = accounts.filter((account) => account.balance !== 0);
  if (nonZero.length > 0) {
    const balances = nonZero.map((account) => `${account.kind} ${formatCents(account.balance)}`).join(', ');
    throw conflict(`Balances must be zero before this account can be closed (${balances}). Move or pay out the money first.`);
  }
  // A customer who still owes the bank is not closed: the loan would be left with nobody to repay it.
  const owed = await amountOwed(trx, user.id);
  if (owed.loans > 0) {
    throw conflict(
      `This customer still owes ${formatCents(owed.cents)} on ${owed.loans === 1 ? 'a loan' : `${owed.loans} loans`}: it must be repaid before the account can be closed.`,
    );
  }
}

const ENDINGS = {
  deleted: {
    subject: 'your account was deleted',
    body: "Your account was deleted at the bank's back office. No data about it is kept.",
    message: 'The customer had no ledger history and was deleted.',
  },
  closed: {
    subject: 'your account was closed',
    body: 'Your account was closed. Sign-in no longer works and your personal data was removed; the record of past transactions is kept as the law requires.',
    message: 'The customer had ledger history: the account was closed and personal data anonymized. Entries are kept.',
  },
} as const;

/**
 * DELETE /user/admin/:id (DESIGN.md rule 6). A customer without ledger history is deleted; one with
 * history is closed: balances must be zero, sign-in stops, personal data is anonymized, entries stay.
 * Files leave the disk once the rows that name them are gone for good (after commit).
 */
export const CLOSE_REQUESTED_MESSAGE = 'The customer will be closed and personal data anonymized once approved. Entries are kept.';

/**
 * With four eyes on (ADR 023), closing a customer with history waits for a second staff member:
 * the preconditions are checked when it is asked for and again when it is approved (`gate`).
 * Deleting a customer no entry ever touched is not a closure and happens at once.
 */
export async function closeOrDeleteCustomer(ctx: ActorContext, id: string, gate?: ApprovalGate): Promise<Outcome<AdminDeleteResult | ApprovalPending>> {
  if (ctx.actor.user.id === id) throw conflict('You cannot delete your own account.');
  const ending = await inTransaction(ctx.db, async (trx) => {
    await gate?.claim(trx);
    const user = await repository.lockUser(trx, id);
    if (!user) throw notFound(USER_NOT_FOUND);
    if (user.is_admin) throw conflict('You cannot delete an admin account.');
    if (user.closed_at) throw conflict('This account is already closed.');
    const accounts = await lockCustomerAccounts(trx, id);
    const history = await hasLedgerHistory(trx, id);
    if (history && needsApproval(ctx, gate)) {
      await assertClosable(trx, user, accounts);
      const summary = 'Close the customer: sign-in stops and personal data is anonymized; entries are kept';
      return requestApproval(withDb(ctx, trx), { kind: 'customer_close', customerId: id, summary, payload: {} }, null, CLOSE_REQUESTED_MESSAGE);
    }
    const deleted = history ? undefined : await deleteWithoutHistory(trx, ctx, user, accounts[0]?.number ?? null);
    const ended = deleted ?? (await close(trx, ctx, user, accounts, history));
    const { subject, body } = ENDINGS[ended.kind];
    await queueMail(withDb(ctx, trx), plainMail(brandOf(ctx.config), ended.user.email, subject, `Hello ${ended.user.first_name},\n\n${body}`));
    return ended;
  });
  if (!('kind' in ending)) return ending;
  await discardFiles(ctx, ending.files);
  const { message } = ENDINGS[ending.kind];
  return { data: { outcome: ending.kind, message }, message };
}
