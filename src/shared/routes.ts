// Every page prerendered to HTML at build time (readable with JavaScript off).
export const marketingPaths = [
  '/',
  '/contact',
  '/privacy-policy',
  '/terms-and-conditions',
  '/ways-to-bank',
  '/about-us',
  '/about',
  '/business-banking',
  '/business-savings',
  '/business-checking',
  '/business-loans',
  '/commercial-real-estate',
  '/resources/personal-checking',
  '/resources/savings',
  '/resources/investment-solutions',
  '/resources/loans',
  '/resources/auto-loan',
  '/resources/home-equity-line',
  '/resources/digital-assets',
  '/resources/retirement-spouse-program',
  '/resources/pamm-mam',
  '/resources/cannabis-investments',
];

export const standalonePaths = [
  '/signin',
  '/login',
  '/signup',
  '/register',
  '/forgot-password',
  '/email-verification',
  '/account-verification',
  '/admin/login',
];

export const publicPaths = [...marketingPaths, ...standalonePaths];

/**
 * The signed-in areas' routes, rendered in the browser from the SPA fallback page. The server
 * answers 200 only for these (a `:param` is one path segment) and 404 for any other path, so a
 * mistyped link is a 404 for crawlers and link checkers while the page still says 'Not Found'.
 * tests/unit/routes.test.ts keeps this list and src/web/routes.ts in step.
 */
export const clientRenderedPaths = [
  '/account',
  '/account/home',
  '/account/transactions',
  '/account/loans',
  '/account/loans/apply',
  '/account/loans/documents',
  '/account/support',
  '/account/cards',
  '/account/profile',
  '/account/transfer',
  '/account/transfers',
  '/account/internal_transfer',
  '/account/domestic_transfer',
  '/account/info',
  '/account/settings',
  '/account/update-account',
  '/account/update-password',
  '/account/beneficiaries',
  '/account/kyc-verification',
  '/account/deposit',
  '/account/deposit/crypto',
  '/admin',
  '/admin/dashboard',
  '/admin/users',
  '/admin/users/:id',
  '/admin/users/account/:id',
  '/admin/users/edit/:id',
  '/admin/contacts',
  '/admin/transactions/add-transactions',
  '/admin/transactions/:id',
  '/admin/journal',
  '/admin/audit',
  '/admin/ledger',
  '/admin/kyc',
  '/admin/loans',
  '/admin/cards',
];

const clientRenderedPatterns = clientRenderedPaths.map((path) => new RegExp(`^${path.replace(/:[A-Za-z]+/g, '[^/]+')}$`));

/** Whether a path (no trailing slash) is one of the signed-in areas' routes. */
export const isClientRenderedPath = (pathname: string): boolean => clientRenderedPatterns.some((pattern) => pattern.test(pathname));
