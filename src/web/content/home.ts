import { BANK_NAME } from '../lib/settings';
import type { AppPath } from '../paths';
import type { ArtName } from './types';
import { figures } from './figures';

const { savings: s, loans: l } = figures;

export interface Slide {
  title: string;
  text: string;
  button: string;
  art: ArtName;
  /** The second slide's side card (spec section 2). */
  sideCard?: { kicker: string; figure: string; button: string; savings: string; savingsLabel: string };
}

// Timings of the hero slider (spec section 9).
export const SLIDE_AUTOPLAY_MS = 7000;
export const SLIDE_FADE_MS = 1000;

export const slides: Slide[] = [
  {
    title: 'Private Banking',
    text: 'A dedicated banker, tailored lending and investment advice for people whose finances have grown more complex.',
    button: 'Get Started',
    art: 'shield',
  },
  {
    title: 'Simplified Investment',
    text: 'Diversified portfolios you can start small with, and fees shown in dollars before you commit.',
    button: 'Create Account',
    art: 'growth',
    sideCard: {
      kicker: 'STARTING AT',
      figure: s.openingMinimum,
      button: 'INTERNET BANKING',
      savings: s.yearlyExample,
      savingsLabel: 'kept with Free Checking, compared with an account charging $12 a month',
    },
  },
  {
    title: 'Secure Digital Banking',
    text: 'Bank from any browser. Every payment you send needs a one-time code that we send to you alone, always free.',
    button: 'Get Started',
    art: 'phone',
  },
];

export const helpCards: Array<{ title: string; text: string; to: AppPath }> = [
  { title: 'Personal Checking', text: 'Everyday accounts with fees you can avoid.', to: '/resources/personal-checking' },
  { title: 'Savings', text: `Up to ${s.relationshipApy} APY, and CDs up to ${s.cdApyMax} APY.`, to: '/resources/savings' },
  { title: 'Personal Loans', text: `${l.personalMin} to ${l.personalMax}, decided in ${l.personalDecisionDays} business days.`, to: '/resources/loans' },
  { title: 'Auto Loans', text: `New and used cars, terms up to ${l.autoTermMonthsMax} months.`, to: '/resources/auto-loan' },
  { title: 'Home Equity Line', text: `Borrow up to ${l.helocCltvMax} combined loan-to-value.`, to: '/resources/home-equity-line' },
  { title: 'Investment Solutions', text: 'Managed and automated portfolios, with the risks explained.', to: '/resources/investment-solutions' },
  { title: 'Business Banking', text: 'Checking, savings and credit for your business.', to: '/business-banking' },
  { title: 'Retirement Planning', text: 'The Retirement Spouse Program for couples.', to: '/resources/retirement-spouse-program' },
];

// The spec's fourth promo (insurance) had an empty link. We do not sell insurance, so the card
// says so honestly and its link goes to the contact page (docs/decisions/004-public-site.md).
export const promoCards: Array<{ title: string; text: string; to: AppPath; action: string; art: ArtName }> = [
  {
    title: 'Business Banking',
    text: 'Accounts and lending that grow with your business.',
    to: '/business-banking',
    action: 'Explore business banking',
    art: 'building',
  },
  {
    title: 'Automated Investor',
    text: 'A diversified portfolio, rebalanced for you. Investments can lose value.',
    to: '/resources/investment-solutions',
    action: 'See how it works',
    art: 'growth',
  },
  {
    title: 'Home Mortgage',
    text: `Fixed-rate terms of ${l.mortgageTermsYears.join(', ')} years.`,
    to: '/resources/loans',
    action: 'Compare mortgage terms',
    art: 'house',
  },
  {
    title: 'Insurance',
    text: `${BANK_NAME} does not sell insurance itself. Ask us how your deposits are protected, or for a referral.`,
    to: '/contact',
    action: 'Ask about coverage',
    art: 'shield',
  },
];

export const accessFeatures = [
  { title: 'Transfer between your accounts', text: 'Move money between savings and checking instantly, free.' },
  { title: 'Deposit checks', text: 'Deposit from wherever you are, with the funds shown as soon as they clear.' },
  { title: 'Send, receive and request money', text: 'Pay people and businesses, confirmed with a free one-time code.' },
];

export const loanTiles: Array<{ title: string; text: string; to: AppPath; art: ArtName }> = [
  {
    title: 'Home Equity Line',
    text: `Draw what you need, up to ${l.helocCltvMax} combined loan-to-value.`,
    to: '/resources/home-equity-line',
    art: 'house',
  },
  { title: 'Auto Loan', text: `From ${l.autoMin}, over up to ${l.autoTermMonthsMax} months.`, to: '/resources/auto-loan', art: 'car' },
  {
    title: 'Business Loan',
    text: `Term loans and credit lines, decided in ${l.businessDecisionDays} business days.`,
    to: '/business-loans',
    art: 'building',
  },
];

export const savingsCta = {
  title: `Grow your savings at up to ${s.relationshipApy} APY`,
  text: `Open savings with ${s.openingMinimum}, no monthly fee, and interest from day one. Rates are variable.`,
};

export const news: Array<{ title: string; text: string; to: AppPath; action: string }> = [
  {
    title: 'How we protect your payments',
    text: 'Every transfer you send needs a one-time code that is bound to that payment, expires in five minutes and is always free.',
    to: '/ways-to-bank',
    action: 'Read about ways to bank',
  },
  {
    title: 'Saving rates explained',
    text: `What APY means, why rates are variable, and how certificates of deposit up to ${s.cdApyMax} APY work.`,
    to: '/resources/savings',
    action: 'Read about savings',
  },
  {
    title: 'Investing with your eyes open',
    text: 'Managed accounts, digital assets and sector funds can lose money. Here is how to judge the risk.',
    to: '/resources/investment-solutions',
    action: 'Read about investing',
  },
];
