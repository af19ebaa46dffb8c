// Staff roles (issue 15, ADR 022). Every staff member has exactly one role; `admin` may do
// everything, the others only what their job needs. The server's routes each declare the roles
// they admit (src/server/plugins/auth.ts); the back office shows a page only to the roles that may
// read it (STAFF_PAGE_ROLES below) and an action only to the roles its route admits (the same ROLES).

export const STAFF_ROLES = ['support', 'compliance', 'finance', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** A staff member's access of its own, apart from the customer flag isAccountDisabled. */
export const STAFF_STATUSES = ['invited', 'active', 'suspended'] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

/** A suspended (or not yet accepted) staff member's sign-in and calls are refused with this. */
export const STAFF_SUSPENDED_MESSAGE = 'Your back office access is suspended. Ask an administrator.';

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  support: 'Support',
  compliance: 'Compliance',
  finance: 'Finance',
  admin: 'Admin',
};

export const STAFF_ROLE_DESCRIPTIONS: Record<StaffRole, string> = {
  support: 'Customers, contact messages, sessions and card requests; reads balances and the journal',
  compliance: 'Identity reviews, blocks, access and closures, the audit log',
  finance: 'Staff entries, reversals, corrections, loans, reports, the ledger and its anchors',
  admin: 'Everything, and managing staff',
};

/**
 * The groups of roles the routes and pages name. `admin` is in every one: an admin may do
 * everything. The server's guard reads each route's own list; these names only keep the lists short.
 */
export const ROLES = {
  anyStaff: ['support', 'compliance', 'finance', 'admin'],
  /** Reads of money (balances, the journal, the general ledger). */
  moneyReaders: ['support', 'finance', 'admin'],
  customerService: ['support', 'admin'],
  /** Customer details and sessions, and compliance's blocks and closures on the same routes. */
  customerCare: ['support', 'compliance', 'admin'],
  compliance: ['compliance', 'admin'],
  finance: ['finance', 'admin'],
  /** The four-eyes queue (ADR 023): the roles whose actions wait there and who decide them. */
  approvers: ['compliance', 'finance', 'admin'],
  admin: ['admin'],
} as const satisfies Record<string, readonly StaffRole[]>;

/**
 * Who may open each back-office page: the roles of the server route the page reads (its first
 * query), so the sidebar, the dashboard's links, the pages' own links and each page's loader agree
 * with the server. A page a role may read but not act on shows no action buttons (each page checks
 * the route of each action with the same ROLES group). `satisfies` keeps it total over the back
 * office's routes (src/shared/routes.ts).
 */
export const STAFF_PAGE_ROLES = {
  admin: ROLES.anyStaff,
  adminDashboard: ROLES.anyStaff,
  adminUsers: ROLES.anyStaff,
  adminUser: ROLES.anyStaff,
  /** PUT /api/user/admin/{id}: support edits details, compliance the status, block and access. */
  adminUserEdit: ROLES.customerCare,
  /** PUT /api/user/admin/account/{id}: balance corrections and account numbers. */
  adminUserAccount: ROLES.finance,
  adminContacts: ROLES.customerService,
  adminAddTransaction: ROLES.finance,
  /** GET /api/transaction/admin/{userId}: every role reads a customer's lines. */
  adminUserTransactions: ROLES.anyStaff,
  adminJournal: ROLES.moneyReaders,
  adminJournalEntry: ROLES.moneyReaders,
  /** The trial balance (finance); a reader of money asks balances at a date from the journal's accounts. */
  adminReports: ROLES.finance,
  adminAudit: ROLES.compliance,
  /** GET /api/admin/ledger (a read of money); verifying and anchoring are finance's. */
  adminLedger: ROLES.moneyReaders,
  adminKyc: ROLES.compliance,
  /** GET /api/admin/loans (a read of money); deciding is finance's. */
  adminLoans: ROLES.moneyReaders,
  adminCards: ROLES.customerService,
  adminJobs: ROLES.finance,
  adminSecurity: ROLES.anyStaff,
  adminStaff: ROLES.admin,
  adminApprovals: ROLES.approvers,
} as const satisfies Record<string, readonly StaffRole[]>;

export type StaffPage = keyof typeof STAFF_PAGE_ROLES;

export function roleMayUse(role: StaffRole | null | undefined, roles: readonly StaffRole[]): boolean {
  return role != null && roles.includes(role);
}

export const STAFF_ACCOUNT_NEEDS_ADMIN = "Only an admin can change a staff member's account.";

/**
 * Staff accounts are listed among the users, but only an admin changes one there (its details, its
 * flags, its sessions): a support or compliance member changing an admin's sign-in email or
 * blocking them would reach around the staff page's rules (ADR 022). The server (403) and the
 * user pages (which offer no such action) both read this.
 */
export function mayChangeUser(role: StaffRole | null | undefined, user: { isAdmin: boolean }): boolean {
  return !user.isAdmin || roleMayUse(role, ROLES.admin);
}
