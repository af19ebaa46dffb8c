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
