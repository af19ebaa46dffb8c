// The public site's navigation (spec section 2: header dropdowns and footer links).
import { paths } from '../../paths';

export interface NavLink {
  label: string;
  to: string;
}

export const personalLinks: NavLink[] = [
  { label: 'Personal Checking', to: paths.personalChecking },
  { label: 'Savings', to: paths.savings },
  { label: 'Loans', to: paths.personalLoans },
  { label: 'Auto Loan', to: paths.autoLoan },
  { label: 'Home Equity Line', to: paths.homeEquityLine },
];

export const businessLinks: NavLink[] = [
  { label: 'Business Banking', to: paths.businessBanking },
  { label: 'Business Savings', to: paths.businessSavings },
  { label: 'Business Checking', to: paths.businessChecking },
  { label: 'Business Loans', to: paths.businessLoans },
  { label: 'Commercial Real Estate', to: paths.commercialRealEstate },
];

export const resourceLinks: NavLink[] = [
  { label: 'Investment Solutions', to: paths.investmentSolutions },
  { label: 'Digital Assets', to: paths.digitalAssets },
  { label: 'Retirement Spouse Program', to: paths.retirementSpouseProgram },
  { label: 'PAMM / MAM Accounts', to: paths.pammMam },
  { label: 'Cannabis Investments', to: paths.cannabisInvestments },
  { label: 'About Us', to: paths.aboutUs },
  { label: 'Contact', to: paths.contact },
];

export const menus = [
  { label: 'Personal', links: personalLinks },
  { label: 'Business', links: businessLinks },
  { label: 'Resources', links: resourceLinks },
];

export const footerLinks: NavLink[] = [
  { label: 'Contact', to: paths.contact },
  { label: 'Ways to Bank', to: paths.waysToBank },
  { label: 'Loans', to: paths.personalLoans },
  { label: 'Investment Solutions', to: paths.investmentSolutions },
  { label: 'Bank Accounts', to: paths.personalChecking },
  { label: 'About Us', to: paths.aboutUs },
  { label: 'Privacy Policy', to: paths.privacyPolicy },
  { label: 'Terms and Conditions', to: paths.termsAndConditions },
];
