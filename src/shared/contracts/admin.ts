import { z } from 'zod';
import { normalizePhone } from './profile';
import { ADDRESS_LENGTH_MAX, EMAIL_LENGTH_MAX, NAME_LENGTH_MAX, PHONE_LENGTH_MAX, STATE_LENGTH_MAX } from '../limits';
import { VERIFICATION_STATUSES } from '../reference';
import { controlCharactersMessage, envelope, optionalText, pageParam, pageSizeParam, paginated, SINGLE_LINE_TEXT, ZEmail, ZTimestamp } from './common';
import { ZUser } from './user';
import { STAFF_ROLES } from '../staff-roles';

// The admin back office (spec sections 2 "Admin area", 5 and 6; DESIGN.md rules 4 and 6).

export const ALL_FIELDS_REQUIRED = 'All fields are required';
export const ADMIN_CANNOT_BE_DISABLED = 'You cannot disable an admin account';
export const SEARCH_LENGTH_MAX = 100;

const page = pageParam();
const pageSize = pageSizeParam();

export const USER_SORT_FIELDS = ['createdAt', 'firstName', 'lastName', 'email'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export const ZAdminUserListQuery = z.object({
  page,
  pageSize,
  search: optionalText('Search', SEARCH_LENGTH_MAX).describe(
    "An account number's first 4 to 10 digits, a user _id, or words of a name or email (the last may be a word's start).",
  ),
  sort: z
    .enum(USER_SORT_FIELDS, { message: `sort must be one of ${USER_SORT_FIELDS.join(', ')}` })
    .default('createdAt')
    .describe('The field the list is sorted by.'),
  order: z.enum(['asc', 'desc'], { message: 'order must be asc or desc' }).optional().describe('Absent: newest first by createdAt, A to Z otherwise.'),
});
export type AdminUserListQuery = z.input<typeof ZAdminUserListQuery>;

/** One row of the users table: enough for the list, never the whole profile. */
export const ZAdminUserRow = z.object({
  _id: z.string().describe("The user's id."),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  accountNumber: z.string().nullable().describe('The 10-digit account number; null for staff.'),
  isAdmin: z.boolean().describe('True for staff.'),
  staffRole: z.enum(STAFF_ROLES).nullable().describe("A staff member's role; null for customers."),
  isBlocked: z.boolean().describe('True when staff blocked the customer from sending money.'),
  isAccountDisabled: z.boolean().describe('True when staff disabled the sign-in.'),
  verificationStatus: z.enum(VERIFICATION_STATUSES).describe('Identity (KYC): awaiting documents, pending review, verified, or failed (documents refused).'),
  closedAt: ZTimestamp.nullable().describe('When the customer was closed; null while open.'),
  createdAt: ZTimestamp,
});
export type AdminUserRow = z.infer<typeof ZAdminUserRow>;
export const ZAdminUserList = paginated(ZAdminUserRow);
export type AdminUserList = z.infer<typeof ZAdminUserList>;

/** The spec's user object plus what only staff see. */
export const ZAdminUser = ZUser.extend({
  closedAt: ZTimestamp.nullable().describe('When the customer was closed; null while open.'),
  /** True once any ledger entry touched the customer's accounts: closing, not deleting, applies. */
  hasLedgerHistory: z.boolean().describe("True once any ledger entry touched the customer's accounts: closing, not deleting, applies."),
}).meta({ id: 'AdminUser' });
export type AdminUserDto = z.infer<typeof ZAdminUser>;

const required = (max: number, label: string) =>
  z
    .string({ message: ALL_FIELDS_REQUIRED })
    .trim()
    .min(1, ALL_FIELDS_REQUIRED)
    .max(max, `${label} must be at most ${max} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage(label));

export const ZAdminUserUpdate = z.object(
  {
    firstName: required(NAME_LENGTH_MAX, 'First name').describe("The user's first name."),
    lastName: required(NAME_LENGTH_MAX, 'Last name').describe("The user's last name."),
    email: required(EMAIL_LENGTH_MAX, 'Email')
      .pipe(z.email('Please enter a valid email address'))
      .transform((email) => email.toLowerCase())
      .describe("The user's email address (stored in lower case)."),
    // Stored in E.164, like every phone the bank keeps (a number with its country code, "+..." or digits).
    phone: required(PHONE_LENGTH_MAX, 'Phone')
      .transform((phone, ctx) => {
        const e164 = normalizePhone(phone);
        if (!e164) {
          ctx.addIssue({ code: 'custom', message: 'Please enter a valid phone number' });
          return z.NEVER;
        }
        return e164;
      })
      .describe('The phone number with its country code (+1 202 555 0101); stored in E.164.'),
    location: z
      .object(
        {
          address: required(ADDRESS_LENGTH_MAX, 'Address').describe('The street address.'),
          state: required(STATE_LENGTH_MAX, 'State').describe('The state or region.'),
        },
        { message: ALL_FIELDS_REQUIRED },
      )
      .describe("The user's address."),
    verificationStatus: z
      .enum(VERIFICATION_STATUSES, {
        error: (issue) => (issue.input === undefined ? ALL_FIELDS_REQUIRED : `Verification status must be one of ${VERIFICATION_STATUSES.join(', ')}`),
      })
      .describe('Identity (KYC): verified or failed decides documents waiting for review; pending needs some waiting, awaiting none.'),
    isBlocked: z
      .boolean({ error: (issue) => (issue.input === undefined ? ALL_FIELDS_REQUIRED : 'Blocked must be true or false') })
      .describe('Block the customer from sending money; with four eyes on, lifting a block waits for a second staff member.'),
    isAccountDisabled: z
      .boolean({ error: (issue) => (issue.input === undefined ? ALL_FIELDS_REQUIRED : 'Disabled must be true or false') })
      .describe("Disable the user's sign-in (never an admin's); with four eyes on, re-enabling waits for a second staff member."),
  },
  { message: ALL_FIELDS_REQUIRED },
);
export type AdminUserUpdate = z.input<typeof ZAdminUserUpdate>;

export const ZAdminDeleteResult = z.object({
  outcome: z.enum(['deleted', 'closed']).describe('deleted: the user had no ledger history; closed: it is kept, and access ends.'),
  message: z.string(),
});
export type AdminDeleteResult = z.infer<typeof ZAdminDeleteResult>;

export const ZAdminUserListAnswer = envelope(ZAdminUserList);
export const ZAdminUserAnswer = envelope(ZAdminUser);
export const ZAdminDeleteAnswer = envelope(ZAdminDeleteResult);
/** The email in a path: the JSON Schema says it is one (ZEmail's pipe shows only its length). */
export const ZEmailParams = z.object({ email: ZEmail.meta({ format: 'email', description: "The user's email address (case does not matter)." }) });

export const ZAuditQuery = z.object({
  page,
  pageSize,
  /** Staff member: their user id. */
  actorId: z.uuid('actorId is not a valid id').optional().describe('Only what this staff member did: their user _id.'),
  /** Customer: a user id, an email or a 10-digit account number. */
  customer: optionalText('customer', EMAIL_LENGTH_MAX).describe('Only records about this customer: a user _id, an email or a 10-digit account number.'),
  action: z
    .string()
    .trim()
    .max(64, 'action must be at most 64 characters')
    .regex(/^[a-z0-9_.]*$/, 'action may contain only lower-case letters, digits, dots and underscores')
    .optional()
    .transform((value) => (value ? value : undefined))
    .describe('Only this action, e.g. transaction.describe (GET /api/admin/audit/filters lists them).'),
});
export type AuditQuery = z.input<typeof ZAuditQuery>;

export const ZAuditEntry = z.object({
  id: z.string(),
  at: ZTimestamp,
  actorId: z.string().nullable().describe('The staff member (user _id) who acted; null for the system.'),
  actorEmail: z.string().nullable(),
  action: z.string().describe('What was done, e.g. user.block or transaction.describe.'),
  targetUserId: z.string().nullable().describe('The customer it is about (user _id), if any.'),
  targetName: z.string().nullable(),
  targetType: z.string().nullable().describe('The kind of thing acted on, e.g. journal_entry.'),
  targetId: z.string().nullable(),
  /** What the action changed, as recorded (any JSON, or null). */
  before: z.unknown().describe('What the action changed, before it (any JSON, or null).'),
  after: z.unknown().describe('What the action changed, after it (any JSON, or null).'),
  reason: z.string().nullable().describe("The staff member's reason, when one was asked for."),
  ip: z.string().nullable().describe('The network address the action came from.'),
  /** The personal part (before, after, reason, address) was erased when the customer was closed; the record stays on the audit chain. */
  erased: z.boolean().describe('The personal part (before, after, reason, address) was erased when the customer was closed; the record stays on the chain.'),
});
export type AuditEntryDto = z.infer<typeof ZAuditEntry>;
export const ZAuditList = paginated(ZAuditEntry);
export type AuditList = z.infer<typeof ZAuditList>;

export const ZAuditFilters = z.object({
  staff: z.array(z.object({ id: z.string(), email: z.string(), name: z.string() })),
  actions: z.array(z.string()),
});
export type AuditFilters = z.infer<typeof ZAuditFilters>;

export const ZAuditListAnswer = envelope(ZAuditList);
export const ZAuditFiltersAnswer = envelope(ZAuditFilters);

const cents = z.number().int();

export const ZDashboardDay = z.object({
  /** YYYY-MM-DD: a day of the bank's calendar (BANK_TIMEZONE). */
  date: z.string().describe("YYYY-MM-DD, a day of the bank's calendar (its time zone, `timeZone`)."),
  count: z.number().int().describe('Transfers, wires, moves between own accounts and standing-order payments booked that day.'),
  volumeCents: cents.describe('Their total, in integer cents.'),
});
export type DashboardDay = z.infer<typeof ZDashboardDay>;

export const ZAdminDashboard = z.object({
  customers: z.number().int().describe('Open customers.'),
  depositsHeldCents: cents.describe('What the bank holds for customers, in integer cents.'),
  transfersToday: z
    .object({
      count: z.number().int(),
      volumeCents: cents.describe('In integer cents.'),
      from: z.string().describe("The instant the bank's day began (ISO 8601)."),
      to: z.string().describe('The instant it ends (ISO 8601): the journal lists its entries between the two.'),
    })
    .describe("Today's transfers, wires, moves between own accounts and standing-order payments (the bank's day)."),
  timeZone: z.string().describe("The bank's time zone (BANK_TIMEZONE): the zone of its days."),
  pendingKycReviews: z.number().int(),
  pendingLoanApplications: z.number().int(),
  newContactMessages: z.number().int().describe('Contact messages nobody has opened yet.'),
  /** The last 30 days, oldest first, every day present (zero when nothing moved). */
  transferVolume: z.array(ZDashboardDay).describe("The bank's last 30 days, oldest first, every day present (zero when nothing moved)."),
});
export type AdminDashboard = z.infer<typeof ZAdminDashboard>;

/** GET /api/admin/ledger: the bank's own accounts, what it holds for customers, and the chain head. */
export const ZAdminLedgerOverview = z.object({
  /** The bank's named accounts (cash, operations adjustments, clearing, loans, interest), in cents. */
  bankAccounts: z
    .array(z.object({ kind: z.string(), name: z.string(), balanceCents: cents.describe('In integer cents.') }))
    .describe("The bank's named accounts (cash, operations adjustments, clearing, loans, interest)."),
  /** Every customer savings and checking balance, summed. */
  customerBalancesCents: cents.describe('Every customer savings and checking balance, summed, in integer cents.'),
  customerAccounts: z.number().int(),
  /** Every account summed: zero whenever double entry holds. */
  totalCents: cents.describe('Every account summed, in integer cents: zero whenever double entry holds.'),
  head: z.object({ seq: z.number().int(), hash: z.string() }).describe("The ledger chain's last sealed entry: its position and hash."),
});
export type AdminLedgerOverview = z.infer<typeof ZAdminLedgerOverview>;

/** POST /api/admin/ledger/verify: `npm run ledger:verify`, run by staff from the back office. */
export const ZAdminLedgerVerification = z.object({
  ok: z.boolean(),
  entries: z.number().int(),
  /** The first thing that does not match (in the ledger, the audit trail or an anchor), when one does not. */
  problem: z.string().nullable(),
  /** The ledger entry that does not match, when the ledger is where it failed. */
  seq: z.number().int().nullable(),
  /** Audit records on the audit chain (ADR 014). */
  auditRecords: z.number().int(),
  /** The lines of ANCHOR_FILE checked, the newest one's time, and the first anchor that no longer matches. */
  anchors: z.object({ count: z.number().int(), newestAt: ZTimestamp.nullable(), failingSeq: z.number().int().nullable() }),
  /** What `npm run ledger:verify` prints: one OK line, or a FAILED line per part that failed (joined by newlines). */
  message: z.string(),
  checkedAt: ZTimestamp,
});
export type AdminLedgerVerification = z.infer<typeof ZAdminLedgerVerification>;

export const ZAdminDashboardAnswer = envelope(ZAdminDashboard);
export const ZAdminLedgerOverviewAnswer = envelope(ZAdminLedgerOverview);
export const ZAdminLedgerVerificationAnswer = envelope(ZAdminLedgerVerification);
