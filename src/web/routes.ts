import { index, layout, route, type RouteConfig, type RouteConfigEntry } from '@react-router/dev/routes';
import { routes, type RouteArea, type RouteName } from '../shared/routes';

// The paths come from the manifest (src/shared/routes.ts); this file only says which module
// renders each one. A name missing here, or one the manifest does not have, fails the type check.
// Each route's id is its name, so one module can serve several paths.
const modules: Record<RouteName, string> = {
  home: 'routes/public/home.tsx',
  contact: 'routes/public/contact.tsx',
  privacyPolicy: 'routes/public/privacy-policy.tsx',
  termsAndConditions: 'routes/public/privacy-policy.tsx',
  waysToBank: 'routes/public/ways-to-bank.tsx',
  aboutUs: 'routes/public/about.tsx',
  about: 'routes/public/about.tsx',
  businessBanking: 'routes/public/product-page.tsx',
  businessSavings: 'routes/public/product-page.tsx',
  businessChecking: 'routes/public/product-page.tsx',
  businessLoans: 'routes/public/product-page.tsx',
  commercialRealEstate: 'routes/public/product-page.tsx',
  personalChecking: 'routes/public/product-page.tsx',
  savings: 'routes/public/product-page.tsx',
  investmentSolutions: 'routes/public/product-page.tsx',
  personalLoans: 'routes/public/product-page.tsx',
  autoLoan: 'routes/public/product-page.tsx',
  homeEquityLine: 'routes/public/product-page.tsx',
  digitalAssets: 'routes/public/product-page.tsx',
  retirementSpouseProgram: 'routes/public/product-page.tsx',
  pammMam: 'routes/public/product-page.tsx',
  cannabisInvestments: 'routes/public/product-page.tsx',
  verifyStatement: 'routes/public/verify-statement.tsx',

  signin: 'routes/public/signin.tsx',
  login: 'routes/public/signin.tsx',
  signup: 'routes/public/signup.tsx',
  register: 'routes/public/signup.tsx',
  forgotPassword: 'routes/public/forgot-password.tsx',
  emailVerification: 'routes/public/email-verification.tsx',
  accountVerification: 'routes/public/account-verification.tsx',
  adminLogin: 'routes/admin/login.tsx',
  adminInvitation: 'routes/admin/invitation.tsx',
  cancelRecovery: 'routes/public/cancel-recovery.tsx',

  account: 'routes/account/index.tsx',
  accountHome: 'routes/account/home.tsx',
  accountTransactions: 'routes/account/transactions.tsx',
  accountLoans: 'routes/account/loans.tsx',
  accountLoansApply: 'routes/account/loans-apply.tsx',
  accountLoansDocuments: 'routes/account/loans-documents.tsx',
  accountSupport: 'routes/account/support.tsx',
  accountCards: 'routes/account/cards.tsx',
  accountProfile: 'routes/account/profile.tsx',
  accountTransfer: 'routes/account/transfer.tsx',
  accountTransfers: 'routes/account/transfers.tsx',
  accountInternalTransfer: 'routes/account/internal-transfer.tsx',
  accountDomesticTransfer: 'routes/account/domestic-transfer.tsx',
  accountInfo: 'routes/account/info.tsx',
  accountSettings: 'routes/account/settings.tsx',
  accountUpdateAccount: 'routes/account/update-account.tsx',
  accountUpdatePassword: 'routes/account/update-password.tsx',
  accountBeneficiaries: 'routes/account/beneficiaries.tsx',
  accountKyc: 'routes/account/kyc-verification.tsx',
  accountDeposit: 'routes/account/deposit.tsx',
  accountDepositCrypto: 'routes/account/deposit-crypto.tsx',
  accountSecurity: 'routes/account/security.tsx',
  accountNotifications: 'routes/account/notifications.tsx',
  accountStatements: 'routes/account/statements.tsx',
  accountBulkPayments: 'routes/account/bulk-payments.tsx',
  accountStandingOrders: 'routes/account/standing-orders.tsx',
  accountReceive: 'routes/account/receive.tsx',
  accountRequests: 'routes/account/requests.tsx',

  admin: 'routes/admin/dashboard.tsx',
  adminDashboard: 'routes/admin/dashboard.tsx',
  adminUsers: 'routes/admin/users.tsx',
  adminUser: 'routes/admin/user-detail.tsx',
  adminUserAccount: 'routes/admin/user-account-edit.tsx',
  adminUserEdit: 'routes/admin/user-edit.tsx',
  adminContacts: 'routes/admin/contacts.tsx',
  adminAddTransaction: 'routes/admin/add-transaction.tsx',
  adminUserTransactions: 'routes/admin/user-transactions.tsx',
  adminJournal: 'routes/admin/journal.tsx',
  adminJournalEntry: 'routes/admin/journal-entry.tsx',
  adminReports: 'routes/admin/reports.tsx',
  adminAudit: 'routes/admin/audit.tsx',
  adminLedger: 'routes/admin/ledger.tsx',
  adminKyc: 'routes/admin/kyc.tsx',
  adminLoans: 'routes/admin/loans.tsx',
  adminCards: 'routes/admin/cards.tsx',
  adminJobs: 'routes/admin/jobs.tsx',
  adminSecurity: 'routes/admin/security.tsx',
  adminStaff: 'routes/admin/staff.tsx',
  adminApprovals: 'routes/admin/approvals.tsx',
};

/** The frame of each area: the marketing site, the quiet sign-in frame, the customer area, the back office. */
const layouts: Record<RouteArea, string> = {
  marketing: 'routes/public/_layout.tsx',
  standalone: 'routes/public/_standalone.tsx',
  account: 'routes/account/_layout.tsx',
  admin: 'routes/admin/_layout.tsx',
};

/** Within an area, after its pages: an address under /admin/ that no page has is answered in the back office's frame. */
const notFoundIn: Partial<Record<RouteArea, RouteConfigEntry[]>> = {
  admin: [route('admin/*', 'routes/admin/not-found.tsx', { id: 'adminNotFound' })],
};

const routesIn = (area: RouteArea): RouteConfigEntry[] => [
  ...(Object.keys(routes) as RouteName[])
    .filter((name) => routes[name].area === area)
    .map((name) => (routes[name].path === '/' ? index(modules[name], { id: name }) : route(routes[name].path.slice(1), modules[name], { id: name }))),
  ...(notFoundIn[area] ?? []),
];

export default [
  ...(Object.keys(layouts) as RouteArea[]).map((area) => layout(layouts[area], routesIn(area))),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
