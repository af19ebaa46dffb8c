/**
 * THE list of the web app's paths. Everything else derives from it: the React Router config
 * (src/web/routes.ts, which maps each name to its module), the pages prerendered at build time
 * (react-router.config.ts), the links (src/web/paths.ts) and the server's answer 200 or 404 for a
 * client-rendered path (src/server/plugins/web.ts). tests/unit/routes.test.ts keeps them in step.
 *
 * `area` says how a page is built and which frame it has: marketing pages (site header and
 * footer) and standalone pages (sign-in and the like) are prerendered to HTML; the customer area
 * and the back office are rendered in the browser from the SPA fallback page. A `:param` is one
 * path segment.
 */
export type RouteArea = 'marketing' | 'standalone' | 'account' | 'admin';

export interface RouteEntry {
  readonly path: string;
  readonly area: RouteArea;
}

export const routes = {
  home: { path: '/', area: 'marketing' },
  contact: { path: '/contact', area: 'marketing' },
  privacyPolicy: { path: '/privacy-policy', area: 'marketing' },
  termsAndConditions: { path: '/terms-and-conditions', area: 'marketing' },
  waysToBank: { path: '/ways-to-bank', area: 'marketing' },
  aboutUs: { path: '/about-us', area: 'marketing' },
  about: { path: '/about', area: 'marketing' },
  businessBanking: { path: '/business-banking', area: 'marketing' },
  businessSavings: { path: '/business-savings', area: 'marketing' },
  businessChecking: { path: '/business-checking', area: 'marketing' },
  businessLoans: { path: '/business-loans', area: 'marketing' },
  commercialRealEstate: { path: '/commercial-real-estate', area: 'marketing' },
  personalChecking: { path: '/resources/personal-checking', area: 'marketing' },
  savings: { path: '/resources/savings', area: 'marketing' },
  investmentSolutions: { path: '/resources/investment-solutions', area: 'marketing' },
  personalLoans: { path: '/resources/loans', area: 'marketing' },
  autoLoan: { path: '/resources/auto-loan', area: 'marketing' },
  homeEquityLine: { path: '/resources/home-equity-line', area: 'marketing' },
  digitalAssets: { path: '/resources/digital-assets', area: 'marketing' },
  retirementSpouseProgram: { path: '/resources/retirement-spouse-program', area: 'marketing' },
  pammMam: { path: '/resources/pamm-mam', area: 'marketing' },
  cannabisInvestments: { path: '/resources/cannabis-investments', area: 'marketing' },
  verifyStatement: { path: '/verify-statement', area: 'marketing' },

  signin: { path: '/signin', area: 'standalone' },
  login: { path: '/login', area: 'standalone' },
  signup: { path: '/signup', area: 'standalone' },
  register: { path: '/register', area: 'standalone' },
  forgotPassword: { path: '/forgot-password', area: 'standalone' },
  emailVerification: { path: '/email-verification', area: 'standalone' },
  accountVerification: { path: '/account-verification', area: 'standalone' },
  adminLogin: { path: '/admin/login', area: 'standalone' },
  adminInvitation: { path: '/admin/invitation', area: 'standalone' },
  /** The link in the notice of a support recovery (ADR 025): cancel it. */
  cancelRecovery: { path: '/cancel-recovery', area: 'standalone' },

  account: { path: '/account', area: 'account' },
  accountHome: { path: '/account/home', area: 'account' },
  accountTransactions: { path: '/account/transactions', area: 'account' },
  accountLoans: { path: '/account/loans', area: 'account' },
  accountLoansApply: { path: '/account/loans/apply', area: 'account' },
  accountLoansDocuments: { path: '/account/loans/documents', area: 'account' },
  accountSupport: { path: '/account/support', area: 'account' },
  accountCards: { path: '/account/cards', area: 'account' },
  accountProfile: { path: '/account/profile', area: 'account' },
  accountTransfer: { path: '/account/transfer', area: 'account' },
  accountTransfers: { path: '/account/transfers', area: 'account' },
  accountInternalTransfer: { path: '/account/internal_transfer', area: 'account' },
  accountDomesticTransfer: { path: '/account/domestic_transfer', area: 'account' },
  accountInfo: { path: '/account/info', area: 'account' },
  accountSettings: { path: '/account/settings', area: 'account' },
  accountUpdateAccount: { path: '/account/update-account', area: 'account' },
  accountUpdatePassword: { path: '/account/update-password', area: 'account' },
  accountBeneficiaries: { path: '/account/beneficiaries', area: 'account' },
  accountKyc: { path: '/account/kyc-verification', area: 'account' },
  accountDeposit: { path: '/account/deposit', area: 'account' },
  accountDepositCrypto: { path: '/account/deposit/crypto', area: 'account' },
  accountSecurity: { path: '/account/security', area: 'account' },
  accountNotifications: { path: '/account/notifications', area: 'account' },
  accountStatements: { path: '/account/statements', area: 'account' },
  accountBulkPayments: { path: '/account/bulk-payments', area: 'account' },
  accountStandingOrders: { path: '/account/standing-orders', area: 'account' },
  accountReceive: { path: '/account/receive', area: 'account' },
  accountRequests: { path: '/account/requests', area: 'account' },

  admin: { path: '/admin', area: 'admin' },
  adminDashboard: { path: '/admin/dashboard', area: 'admin' },
  adminUsers: { path: '/admin/users', area: 'admin' },
  adminUser: { path: '/admin/users/:id', area: 'admin' },
  adminUserAccount: { path: '/admin/users/account/:id', area: 'admin' },
  adminUserEdit: { path: '/admin/users/edit/:id', area: 'admin' },
  adminContacts: { path: '/admin/contacts', area: 'admin' },
  adminAddTransaction: { path: '/admin/transactions/add-transactions', area: 'admin' },
  adminUserTransactions: { path: '/admin/transactions/:id', area: 'admin' },
  adminJournal: { path: '/admin/journal', area: 'admin' },
  adminJournalEntry: { path: '/admin/journal/:id', area: 'admin' },
  adminReports: { path: '/admin/reports', area: 'admin' },
  adminAudit: { path: '/admin/audit', area: 'admin' },
  adminLedger: { path: '/admin/ledger', area: 'admin' },
  adminKyc: { path: '/admin/kyc', area: 'admin' },
  adminLoans: { path: '/admin/loans', area: 'admin' },
  adminCards: { path: '/admin/cards', area: 'admin' },
  adminJobs: { path: '/admin/jobs', area: 'admin' },
  adminSecurity: { path: '/admin/security', area: 'admin' },
  adminStaff: { path: '/admin/staff', area: 'admin' },
  adminApprovals: { path: '/admin/approvals', area: 'admin' },
} as const satisfies Record<string, RouteEntry>;

export type RouteName = keyof typeof routes;
export type RoutePath = (typeof routes)[RouteName]['path'];

const entries = Object.entries(routes) as Array<[RouteName, RouteEntry]>;
const pathsIn = (...areas: RouteArea[]) => entries.filter(([, route]) => areas.includes(route.area)).map(([, route]) => route.path);

/** Every page prerendered to HTML at build time (readable with JavaScript off). */
export const prerenderedPaths: string[] = pathsIn('marketing', 'standalone');

/**
 * The signed-in areas' routes, rendered in the browser from the SPA fallback page. The server
 * answers 200 only for these and 404 for any other path, so a mistyped link is a 404 for
 * crawlers and link checkers while the page still says 'Not Found'.
 */
export const clientRenderedPaths: string[] = pathsIn('account', 'admin');

const clientRenderedPatterns = clientRenderedPaths.map((path) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`));

/** Whether a path (no trailing slash) is one of the signed-in areas' routes. */
export const isClientRenderedPath = (pathname: string): boolean => clientRenderedPatterns.some((pattern) => pattern.test(pathname));
