import { randomBytes } from 'node:crypto';
import {
  INVITATION_ACCEPTED_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  LAST_ADMIN_MESSAGE,
  NOT_SUSPENDED_YOURSELF_MESSAGE,
  STAFF_INVITATION_TTL_MS,
  STAFF_INVITATION_REQUESTED_MESSAGE,
  STAFF_INVITED_MESSAGE,
  STAFF_INVITATION_RESENT_MESSAGE,
  INVITATION_NOT_PENDING_MESSAGE,
  STAFF_LIST_MAX,
  STAFF_NOT_FOUND_MESSAGE,
  STAFF_REINSTATED_MESSAGE,
  STAFF_ROLE_CHANGE_REQUESTED_MESSAGE,
  STAFF_ROLE_CHANGED_MESSAGE,
  STAFF_SUSPENDED_DONE_MESSAGE,
  type StaffList,
  type StaffMember,
  type ZStaffInvitationAccept,
  type ZStaffInvite,
} from '../../shared/contracts/staff';
import { routes } from '../../shared/routes';
import { STAFF_ROLE_LABELS, type StaffRole } from '../../shared/staff-roles';
import type { z } from 'zod';
import type { ApprovalPending } from '../../shared/contracts/approvals';
import { type ApprovalGate, needsApproval, requestApproval } from '../approvals/request';
import { audit } from '../audit/audit';
import { hashPassword, newToken, sha256 } from '../auth/crypto';
import { assertPasswordAllowed } from '../auth/passwords';
import { endUserSessions } from '../auth/sessions';
import { type ActorContext, type ServiceContext, withDb } from '../context';
import { isUniqueViolation } from '../db/errors';
import type { User } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { badRequest, conflict, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { queueMail } from '../mail/outbox';
import { brandOf, staffInvitationMail } from '../mail/templates';
import * as repository from './repository';

// Staff management (issue 15, ADR 022): admins list staff, invite them, change their roles and
// suspend or reinstate their back office access. The bank always keeps one active admin. Each
// change is one function (inviteStaff, changeStaffRole...) so four-eyes approvals can wrap it.

const EMAIL_IN_USE = () => conflict('This email address is already used by another account.', { email: 'Already in use' });

function toStaffMember(row: repository.StaffRow): StaffMember {
  return {
    _id: row.id,
    name: `${row.first_name} ${row.last_name}`.trim(),
    email: row.email,
    staffRole: row.staff_role,
    staffStatus: row.staff_status,
    hasSecondFactor: row.has_second_factor,
    lastSignInAt: row.last_sign_in_at ? new Date(row.last_sign_in_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    invitationExpiresAt: row.invitation_expires_at ? new Date(row.invitation_expires_at).toISOString() : null,
  };
}

export async function listStaff(ctx: ServiceContext): Promise<StaffList> {
  return { items: (await repository.listStaff(ctx.db, STAFF_LIST_MAX)).map(toStaffMember) };
}

async function staffMember(ctx: ServiceContext, id: string): Promise<StaffMember> {
  const row = (await repository.listStaff(ctx.db, STAFF_LIST_MAX)).find((each) => each.id === id);
  if (!row) throw notFound(STAFF_NOT_FOUND_MESSAGE);
  return toStaffMember(row);
}

/** "Sam Lee Park" is first name "Sam", last name "Lee Park"; one word is a first name alone. */
function splitName(name: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

/** Whether an active admin besides these (the one asking, the one a change is about) could decide a staff change. */
const anotherAdmin = (activeAdminIds: string[], ...besides: string[]) => activeAdminIds.some((id) => !besides.includes(id));

/**
 * POST /admin/staff: a new staff member with the role, who cannot sign in until they choose a
 * password from the emailed link (then a second factor at their first sign-in, ADR 011).
 */
export async function inviteStaff(
  ctx: ActorContext,
  input: z.output<typeof ZStaffInvite>,
  gate?: ApprovalGate,
): Promise<Outcome<StaffMember | ApprovalPending>> {
  // Four eyes (ADR 023): the invitation waits for a second admin; an address in use is refused now.
  // A bank whose only active admin asks has nobody to approve it: it is made at once (the bootstrap).
  if (needsApproval(ctx, gate) && anotherAdmin(await repository.activeAdminIds(ctx.db), ctx.actor.user.id)) {
    if (await repository.emailTaken(ctx.db, input.email)) throw EMAIL_IN_USE();
    const summary = `Invite ${input.name} <${input.email}> as ${STAFF_ROLE_LABELS[input.staffRole]}`;
    return requestApproval(ctx, { kind: 'staff_invitation', customerId: null, summary, payload: { ...input } }, null, STAFF_INVITATION_REQUESTED_MESSAGE);
  }
  const { firstName, lastName } = splitName(input.name);
  // Nobody knows this password: the account opens only through the invitation.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  const invited = await inTransaction(ctx.db, async (trx) => {
    await gate?.claim(trx);
    if (await repository.emailTaken(trx, input.email)) throw EMAIL_IN_USE();
    const user = await repository.insertInvitedStaff(trx, { email: input.email, firstName, lastName, role: input.staffRole, passwordHash });
    await audit(trx, ctx.actor, {
      action: 'staff.invite',
      targetUserId: user.id,
      targetType: 'staff',
      targetId: user.id,
      after: { email: user.email, staffRole: user.staff_role, staffStatus: user.staff_status },
    });
    await sendInvitationLink(withDb(ctx, trx), user);
    return user;
  }).catch((error: unknown) => {
    if (isUniqueViolation(error, repository.EMAIL_UNIQUE_CONSTRAINT)) throw EMAIL_IN_USE();
    throw error;
  });
  return { data: await staffMember(ctx, invited.id), message: STAFF_INVITED_MESSAGE, created: true };
}

/** A new invitation link for `staff` (only its hash stored), mailed in the caller's transaction. */
async function sendInvitationLink(ctx: ActorContext, staff: User): Promise<Date> {
  const token = newToken();
  const expiresAt = new Date(ctx.clock.now().getTime() + STAFF_INVITATION_TTL_MS);
  await repository.insertInvitation(ctx.db, { userId: staff.id, tokenHash: sha256(token), invitedBy: ctx.actor.user.id, expiresAt });
  const link = `${ctx.config.publicUrl}${routes.adminInvitation.path}?token=${token}`;
  const invitedBy = `${ctx.actor.user.first_name} ${ctx.actor.user.last_name}`.trim();
  const mail = staffInvitationMail(brandOf(ctx.config), staff.email, {
    firstName: staff.first_name,
    roleLabel: staff.staff_role ? STAFF_ROLE_LABELS[staff.staff_role] : '',
    invitedBy,
    link,
    validDays: STAFF_INVITATION_TTL_MS / 86_400_000,
  });
  await queueMail(ctx, mail, { expiresAt });
  return expiresAt;
}

/**
 * POST /admin/staff/:id/invitation: a new link for a staff member who has not accepted theirs (it
 * expired, or the mail was lost); every earlier link stops working in the same transaction. Not
 * a four-eyes request even where the first invitation was one (ADR 023): the staff member exists
 * only because that invitation was carried out, and a new link changes no one, no address and no
 * role; it goes to the address a second admin approved, never to the admin who asks. Audited
 * (`staff.reinvite`).
 */
export async function resendStaffInvitation(ctx: ActorContext, id: string): Promise<Outcome<StaffMember>> {
  await inTransaction(ctx.db, async (trx) => {
    const { staff } = await repository.lockForStaffChange(trx, id);
    if (!staff) throw notFound(STAFF_NOT_FOUND_MESSAGE);
    // Accepted (active), or suspended: a suspended invitee is reinstated first, then sent a link.
    if (staff.staff_status !== 'invited' || staff.closed_at) throw conflict(INVITATION_NOT_PENDING_MESSAGE);
    const now = ctx.clock.now();
    const linksEnded = await repository.expireInvitations(trx, id, now);
    const expiresAt = await sendInvitationLink(withDb(ctx, trx), staff);
    await audit(trx, ctx.actor, {
      action: 'staff.reinvite',
      targetUserId: id,
      targetType: 'staff',
      targetId: id,
      after: { email: staff.email, staffRole: staff.staff_role, expiresAt: expiresAt.toISOString(), earlierLinksEnded: linksEnded },
    });
  });
  return { data: await staffMember(ctx, id), message: STAFF_INVITATION_RESENT_MESSAGE };
}

/** Whether the change leaves no active admin (the bank always keeps one). */
function takesLastAdmin(staff: User, activeAdminIds: string[]): boolean {
  return staff.staff_role === 'admin' && staff.staff_status === 'active' && activeAdminIds.length <= 1 && activeAdminIds.includes(staff.id);
}

/** PUT /admin/staff/:id: a new role; the last active admin keeps theirs. */
export async function changeStaffRole(ctx: ActorContext, id: string, role: StaffRole, gate?: ApprovalGate): Promise<Outcome<StaffMember | ApprovalPending>> {
  let pending: Outcome<ApprovalPending> | undefined;
  await inTransaction(ctx.db, async (trx) => {
    await gate?.claim(trx);
    const { staff, activeAdminIds } = await repository.lockForStaffChange(trx, id);
    if (!staff) throw notFound(STAFF_NOT_FOUND_MESSAGE);
    if (staff.staff_role === role) return;
    if (role !== 'admin' && takesLastAdmin(staff, activeAdminIds)) throw conflict(LAST_ADMIN_MESSAGE);
    // Four eyes (ADR 023): checked now, carried out (and checked again) when a second admin approves;
    // made at once when no admin but the one asking and the one it is about could approve it.
    if (needsApproval(ctx, gate) && anotherAdmin(activeAdminIds, ctx.actor.user.id, id)) {
      const name = `${staff.first_name} ${staff.last_name}`.trim();
      const summary = `Change ${name}'s role from ${staff.staff_role ? STAFF_ROLE_LABELS[staff.staff_role] : 'none'} to ${STAFF_ROLE_LABELS[role]}`;
      pending = await requestApproval(
        withDb(ctx, trx),
        { kind: 'staff_role_change', customerId: null, subjectUserId: id, summary, payload: { staffRole: role } },
        null,
        STAFF_ROLE_CHANGE_REQUESTED_MESSAGE,
      );
      return;
    }
    await repository.setStaffRole(trx, id, role);
    await audit(trx, ctx.actor, {
      action: 'staff.role',
      targetUserId: id,
      targetType: 'staff',
      targetId: id,
      before: { staffRole: staff.staff_role },
      after: { staffRole: role },
    });
  });
  if (pending) return pending;
  return { data: await staffMember(ctx, id), message: STAFF_ROLE_CHANGED_MESSAGE };
}

/** POST /admin/staff/:id/suspend: no back office access, every session ended at once. */
export async function suspendStaff(ctx: ActorContext, id: string): Promise<Outcome<StaffMember>> {
  await inTransaction(ctx.db, async (trx) => {
    const { staff, activeAdminIds } = await repository.lockForStaffChange(trx, id);
    if (!staff) throw notFound(STAFF_NOT_FOUND_MESSAGE);
    if (staff.staff_status === 'suspended') return;
    if (takesLastAdmin(staff, activeAdminIds)) throw conflict(LAST_ADMIN_MESSAGE);
    if (id === ctx.actor.user.id) throw conflict(NOT_SUSPENDED_YOURSELF_MESSAGE);
    await repository.setStaffStatus(trx, id, 'suspended');
    const sessionsEnded = await endUserSessions(trx, id);
    await audit(trx, ctx.actor, {
      action: 'staff.suspend',
      targetUserId: id,
      targetType: 'staff',
      targetId: id,
      before: { staffStatus: staff.staff_status },
      after: { staffStatus: 'suspended', sessionsEnded },
    });
  });
  return { data: await staffMember(ctx, id), message: STAFF_SUSPENDED_DONE_MESSAGE };
}

/**
 * POST /admin/staff/:id/reinstate: access again, with the password and factors they had. Someone
 * suspended before they accepted the invitation goes back to invited (their link still decides).
 */
export async function reinstateStaff(ctx: ActorContext, id: string): Promise<Outcome<StaffMember>> {
  await inTransaction(ctx.db, async (trx) => {
    const { staff } = await repository.lockForStaffChange(trx, id);
    if (!staff) throw notFound(STAFF_NOT_FOUND_MESSAGE);
    if (staff.staff_status !== 'suspended') return;
    const accepted = await repository.hasAcceptedInvitationOrPassword(trx, id);
    const status = accepted ? 'active' : 'invited';
    await repository.setStaffStatus(trx, id, status);
    await audit(trx, ctx.actor, {
      action: 'staff.reinstate',
      targetUserId: id,
      targetType: 'staff',
      targetId: id,
      before: { staffStatus: 'suspended' },
      after: { staffStatus: status },
    });
  });
  return { data: await staffMember(ctx, id), message: STAFF_REINSTATED_MESSAGE };
}

/** POST /auth/admin/invitation: the invited staff member's first password, from the mailed link, once. */
export async function acceptStaffInvitation(ctx: ServiceContext, input: z.output<typeof ZStaffInvitationAccept>): Promise<Outcome<null>> {
  assertPasswordAllowed(input.password, [ctx.config.bankName, 'ledgerline']);
  const passwordHash = await hashPassword(input.password);
  await inTransaction(ctx.db, async (trx) => {
    const invitation = await repository.lockInvitation(trx, sha256(input.token));
    if (!invitation || invitation.used_at || new Date(invitation.expires_at).getTime() <= ctx.clock.now().getTime()) {
      throw badRequest(INVITATION_INVALID_MESSAGE);
    }
    const staff = await repository.findStaff(trx, invitation.user_id);
    // Suspended (or closed) before the link was used: the link no longer opens anything.
    if (!staff || staff.staff_status !== 'invited' || staff.closed_at) throw badRequest(INVITATION_INVALID_MESSAGE);
    const user = await repository.acceptInvitation(trx, invitation.id, staff.id, passwordHash);
    await audit(
      trx,
      { user: { id: user.id, email: user.email }, ip: ctx.actor?.ip ?? null },
      {
        action: 'staff.accept',
        targetUserId: user.id,
        targetType: 'staff',
        targetId: user.id,
        after: { staffStatus: user.staff_status },
      },
    );
  });
  return { data: null, message: INVITATION_ACCEPTED_MESSAGE };
}
