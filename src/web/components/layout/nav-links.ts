// The public site's navigation (spec section 2: header dropdowns and footer links).
import type { AppPath } from '../../paths';

export interface NavLink {
  label: string;
  to: AppPath;
}

export const personalLinks: NavLink[] = [
  { label: 'Personal Checking', to: '/resources/personal-checking' },
  { label: 'Savings', to: '/resources/savings' },
  { label: 'Loans', to: '/resources/loans' },
  { label: 'Auto Loan', to: '/resources/auto-loan' },
  { label: 'Home Equity Line', to: '/resources/home-equity-line' },
];

export const businessLinks: NavLink[] = [
  { label: 'Business Banking', to: '/business-banking' },
  { label: 'Business Savings', to: '/business-savings' },
  { label: 'Business Checking', to: '/business-checking' },
  { label: 'Business Loans', to: '/business-loans' },
  { label: 'Commercial Real Estate', to: '/commercial-real-estate' },
];

export const resourceLinks: NavLink[] = [
  { label: 'Investment Solutions', to: '/resources/investment-solutions' },
  { label: 'Digital Assets', to: '/resources/digital-assets' },
  { label: 'Retirement Spouse Program', to: '/resources/retirement-spouse-program' },
  { label: 'PAMM / MAM Accounts', to: '/resources/pamm-mam' },
  { label: 'Cannabis Investments', to: '/resources/cannabis-investments' },
  { label: 'About Us', to: '/about-us' },
  { label: 'Contact', to: '/contact' },
];

export const menus = [
  { label: 'Personal', links: personalLinks },
  { label: 'Business', links: businessLinks },
  { label: 'Resources', links: resourceLinks },
];

export const footerLinks: NavLink[] = [
  { label: 'Contact', to: '/contact' },
  { label: 'Ways to Bank', to: '/ways-to-bank' },
  { label: 'Loans', to: '/resources/loans' },
  { label: 'Investment Solutions', to: '/resources/investment-solutions' },
  { label: 'Bank Accounts', to: '/resources/personal-checking' },
  { label: 'About Us', to: '/about-us' },
  { label: 'Verify a statement', to: '/verify-statement' },
  { label: 'Privacy Policy', to: '/privacy-policy' },
  { label: 'Terms and Conditions', to: '/terms-and-conditions' },
];
