import { z } from 'zod';
import { ADDRESS_LENGTH_MAX, EMAIL_LENGTH_MAX, NAME_LENGTH_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PHONE_LENGTH_MAX, STATE_LENGTH_MAX } from '../limits';
import { VERIFICATION_STATUSES } from '../reference';
import type { UserDto } from './user';

// The admin back office (spec sections 2 "Admin area", 5 and 6; DESIGN.md rules 4 and 6).

export const ALL_FIELDS_REQUIRED = 'All fields are required';
export const ADMIN_CANNOT_BE_DISABLED = 'You cannot disable an admin account';
export const SEARCH_LENGTH_MAX = 100;

const page = z.coerce
  .number({ message: 'page must be a number' })
  .int('page must be a whole number')
  .min(1, 'page must be at least 1')
  .max(100_000, 'page must be at most 100000')
  .default(1);
const pageSize = z.coerce
  .number({ message: 'pageSize must be a number' })
  .int('pageSize must be a whole number')
  .min(1, 'pageSize must be at least 1')
  .max(PAGE_SIZE_MAX, `pageSize must be at most ${PAGE_SIZE_MAX}`)
  .default(PAGE_SIZE_DEFAULT);

export const USER_SORT_FIELDS = ['createdAt', 'firstName', 'lastName', 'email'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export const ZAdminUserListQuery = z.object({
  page,
  pageSize,
  search: z
    .string()
    .trim()
    .max(SEARCH_LENGTH_MAX, `Search must be at most ${SEARCH_LENGTH_MAX} characters`)
    .optional()
    .transform((value) => (value ? value : undefined)),
  sort: z.enum(USER_SORT_FIELDS, { message: `sort must be one of ${USER_SORT_FIELDS.join(', ')}` }).default('createdAt'),
  order: z.enum(['asc', 'desc'], { message: 'order must be asc or desc' }).optional(),
});
export type AdminUserListQuery = z.input<typeof ZAdminUserListQuery>;

/** One row of the users table: enough for the list, never the whole profile. */
export interface AdminUserRow {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  accountNumber: string | null;
  isAdmin: boolean;
  isBlocked: boolean;
  isAccountDisabled: boolean;
  verificationStatus: UserDto['verificationStatus'];
  closedAt: string | null;
  createdAt: string;
}

export interface AdminUserList {
  items: AdminUserRow[];
  page: number;
  pageSize: number;
  total: number;
}

/** The spec's user object plus what only staff see. */
export interface AdminUserDto extends UserDto {
  closedAt: string | null;
  /** True once any ledger entry touched the customer's accounts: closing, not deleting, applies. */
  hasLedgerHistory: boolean;
}

const required = (max: number, label: string) =>
  z.string({ message: ALL_FIELDS_REQUIRED }).trim().min(1, ALL_FIELDS_REQUIRED).max(max, `${label} must be at most ${max} characters`);

export const ZAdminUserUpdate = z.object(
  {
    firstName: required(NAME_LENGTH_MAX, 'First name'),
    lastName: required(NAME_LENGTH_MAX, 'Last name'),
    email: required(EMAIL_LENGTH_MAX, 'Email')
      .pipe(z.email('Please enter a valid email address'))
      .transform((email) => email.toLowerCase()),
    phone: required(PHONE_LENGTH_MAX, 'Phone').regex(/^\+?[0-9 ()-]{4,}$/, 'Please enter a valid phone number'),
    location: z.object(
      {
        address: required(ADDRESS_LENGTH_MAX, 'Address'),
        state: required(STATE_LENGTH_MAX, 'State'),
      },
      { message: ALL_FIELDS_REQUIRED },
    ),
    verificationStatus: z.enum(VERIFICATION_STATUSES, {
      error: (issue) => (issue.input === undefined ? ALL_FIELDS_REQUIRED : `Verification status must be one of ${VERIFICATION_STATUSES.join(', ')}`),
    }),
    isBlocked: z.boolean({ error: (issue) => (issue.input === undefined ? ALL_FIELDS_REQUIRED : 'Blocked must be true or false') }),
    isAccountDisabled: z.boolean({ error: (issue) => (issue.input === undefined ? ALL_FIELDS_REQUIRED : 'Disabled must be true or false') }),
  },
  { message: ALL_FIELDS_REQUIRED },
);
export type AdminUserUpdate = z.input<typeof ZAdminUserUpdate>;

export interface AdminDeleteResult {
  outcome: 'deleted' | 'closed';
  message: string;
}

export const ZAuditQuery = z.object({
  page,
  pageSize,
  /** Staff member: their user id. */
  actorId: z.uuid('actorId is not a valid id').optional(),
  /** Customer: a user id, an email or a 10-digit account number. */
  customer: z
    .string()
    .trim()
    .max(EMAIL_LENGTH_MAX, `customer must be at most ${EMAIL_LENGTH_MAX} characters`)
    .optional()
    .transform((value) => (value ? value : undefined)),
  action: z
    .string()
    .trim()
    .max(64, 'action must be at most 64 characters')
    .regex(/^[a-z0-9_.]*$/, 'action may contain only lower-case letters, digits, dots and underscores')
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type AuditQuery = z.input<typeof ZAuditQuery>;

export interface AuditEntryDto {
  id: string;
  at: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetUserId: string | null;
  targetName: string | null;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  ip: string | null;
}

export interface AuditList {
  items: AuditEntryDto[];
  page: number;
  pageSize: number;
  total: number;
}

export interface AuditFilters {
  staff: Array<{ id: string; email: string; name: string }>;
  actions: string[];
}

export interface DashboardDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  count: number;
  volumeCents: number;
}

export interface AdminDashboard {
  customers: number;
  depositsHeldCents: number;
  transfersToday: { count: number; volumeCents: number };
  pendingKycReviews: number;
  /** Null while the loans module is not installed. */
  pendingLoanApplications: number | null;
  /** Null while the contact module is not installed. */
  newContactMessages: number | null;
  /** The last 30 days, oldest first, every day present (zero when nothing moved). */
  transferVolume: DashboardDay[];
}

/** GET /api/admin/ledger: the bank's own accounts, what it holds for customers, and the chain head. */
export interface AdminLedgerOverview {
  /** The bank's named accounts (cash, operations adjustments, clearing, loans, interest), in cents. */
  bankAccounts: Array<{ kind: string; name: string; balanceCents: number }>;
  /** Every customer savings and checking balance, summed. */
  customerBalancesCents: number;
  customerAccounts: number;
  /** Every account summed: zero whenever double entry holds. */
  totalCents: number;
  head: { seq: number; hash: string };
}

/** POST /api/admin/ledger/verify: `npm run ledger:verify`, run by staff from the back office. */
export interface AdminLedgerVerification {
  ok: boolean;
  entries: number;
  /** The first entry that does not match, when one does not. */
  problem: string | null;
  seq: number | null;
  message: string;
  checkedAt: string;
}
