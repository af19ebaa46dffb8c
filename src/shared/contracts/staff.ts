import { z } from 'zod';
import { NAME_LENGTH_MAX, PASSWORD_LENGTH_MAX } from '../limits';
import { STAFF_ROLES, STAFF_STATUSES } from '../staff-roles';
import { ZNewPassword } from './auth';
import { controlCharactersMessage, envelope, requiredText, SINGLE_LINE_TEXT, ZEmail, ZTimestamp } from './common';

// Staff management (issue 15, ADR 022): the admins' list of staff, invitations, roles and access.

/** At most this many staff members are listed (a bank's staff, not its customers: no paging). */
export const STAFF_LIST_MAX = 500;
/** An invitation link works once, for this long. */
export const STAFF_INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const STAFF_INVITED_MESSAGE = 'Invitation sent: the new staff member sets a password from the emailed link.';
export const STAFF_ROLE_CHANGED_MESSAGE = 'Role changed';
/** With four eyes on, what was asked: nothing is sent or changed until a second admin approves it. */
export const STAFF_INVITATION_REQUESTED_MESSAGE = 'Invitation requested';
export const STAFF_ROLE_CHANGE_REQUESTED_MESSAGE = 'Role change requested';
export const STAFF_INVITATION_RESENT_MESSAGE = 'Invitation sent again: the new link works for 7 days and the earlier one no longer works.';
export const INVITATION_NOT_PENDING_MESSAGE = 'Only a staff member who has not yet accepted their invitation can be sent a new link.';
export const STAFF_SUSPENDED_DONE_MESSAGE = 'Back office access suspended: their sessions have ended.';
export const STAFF_REINSTATED_MESSAGE = 'Back office access reinstated';
export const LAST_ADMIN_MESSAGE = 'This is the last active admin: the bank always keeps one. Make another staff member admin first.';
export const STAFF_NOT_FOUND_MESSAGE = 'Staff member not found';
export const NOT_SUSPENDED_YOURSELF_MESSAGE = 'You cannot suspend your own access.';
export const INVITATION_INVALID_MESSAGE = 'This invitation link is invalid or has expired. Ask an administrator for a new one.';
export const INVITATION_ACCEPTED_MESSAGE = 'Your password is set. Sign in to the back office and set up your second factor.';

export const ZStaffRole = z
  .enum(STAFF_ROLES, { message: `Role must be one of ${STAFF_ROLES.join(', ')}` })
  .describe('The role: what the staff member may see and do (ADR 022); admin may do everything.');

export const ZStaffMember = z
  .object({
    _id: z.string().describe("The staff member's user id."),
    name: z.string(),
    email: z.string(),
    staffRole: z.enum(STAFF_ROLES),
    staffStatus: z.enum(STAFF_STATUSES).describe('invited: has not set a password yet; active; suspended: may not sign in.'),
    hasSecondFactor: z.boolean().describe('Whether a passkey or an authenticator app is set up.'),
    lastSignInAt: ZTimestamp.nullable().describe('null: never signed in.'),
    createdAt: ZTimestamp,
    /** An invited staff member's newest link: until when it works (past: expired); null otherwise. */
    invitationExpiresAt: ZTimestamp.nullable().describe("An invited staff member's newest link: until when it works (past: expired); null otherwise."),
  })
  .meta({ id: 'StaffMember' });
export type StaffMember = z.infer<typeof ZStaffMember>;

export const ZStaffListAnswer = envelope(z.object({ items: z.array(ZStaffMember) }));
export type StaffList = z.infer<typeof ZStaffListAnswer>['data'];
export const ZStaffMemberAnswer = envelope(ZStaffMember);

export const ZStaffInvite = z.object(
  {
    name: requiredText('Name', NAME_LENGTH_MAX * 2 + 1, 'Name is required').describe("The staff member's full name."),
    email: ZEmail.describe('Where the invitation link goes (it works once, for 7 days).'),
    staffRole: ZStaffRole,
  },
  { message: 'Name, email and role are required' },
);
export type StaffInvite = z.input<typeof ZStaffInvite>;

export const ZStaffRoleChange = z.object({ staffRole: ZStaffRole }, { message: 'Role is required' });
export type StaffRoleChange = z.input<typeof ZStaffRoleChange>;

export const ZStaffInvitationAccept = z
  .object({
    token: z
      .string({ message: INVITATION_INVALID_MESSAGE })
      .min(10, INVITATION_INVALID_MESSAGE)
      .max(200, INVITATION_INVALID_MESSAGE)
      .regex(/^[A-Za-z0-9_-]+$/, INVITATION_INVALID_MESSAGE)
      .describe('The token of the emailed invitation link (its ?token=).'),
    password: ZNewPassword,
    confirmPassword: z
      .string({ message: 'Please confirm the password' })
      .max(PASSWORD_LENGTH_MAX)
      .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password'))
      .describe('The password again: it must match.'),
  })
  .refine((value) => value.password === value.confirmPassword, { path: ['confirmPassword'], message: 'Passwords do not match' });
export type StaffInvitationAccept = z.input<typeof ZStaffInvitationAccept>;
