import { BANK_NAME } from '../lib/settings';
import { figures } from './figures';
import type { ProductPage } from './types';

const { savings: s, personalChecking: pc, businessChecking: bc, loans: l, investments: inv } = figures;

const depositNote = {
  title: 'About these rates and fees',
  paragraphs: [
    'APY means annual percentage yield. Rates are variable and may change after the account is opened; fees may reduce earnings. The figures on this page are for illustration and are reviewed by the bank regularly.',
  ],
};
const lendingNote = (decision: string) => ({
  title: 'Before you borrow',
  paragraphs: [
    `All loans are subject to credit approval, and rates, terms and conditions depend on your credit history and may change. We aim to decide within ${decision} business days of receiving a complete application.`,
    'Borrow only what you can repay: a missed payment costs fees and harms your credit record, and a loan secured on your home or car puts that property at risk if you do not repay.',
  ],
});
const investmentRisk = (extra: string[] = []) => ({
  title: 'Investment risk: please read',
  paragraphs: [
    'Investment products are not deposits, are not FDIC insured, are not guaranteed by the bank and may lose value, including the whole amount invested. Past performance does not guarantee future results, and no projection on this page is a promise.',
    ...extra,
    'Invest only money you can leave invested for several years and could afford to lose. Read the offering documents and consider independent advice before you invest.',
  ],
});

export const productPages: ProductPage[] = [
  {
    path: '/resources/personal-checking',
    title: 'Personal Checking',
    eyebrow: 'Personal banking',
    summary: 'An everyday account with a debit card, online banking and fees you can avoid.',
    art: 'phone',
    cta: 'Open a checking account',
    intro: [
      `Checking at ${BANK_NAME} is built for the money you use every day: pay bills, move money between your own accounts for free, and see every transaction the moment it posts.`,
      'Both accounts come with internet banking, a debit card on request and savings linked under the same account number, so moving money is one step.',
    ],
    offersTitle: 'Choose your checking account',
    offers: [
      {
        name: 'Essential Checking',
        figure: `${pc.essentialFee}/month`,
        figureLabel: `waived ${pc.essentialWaiver}`,
        points: ['No minimum opening deposit', 'Free transfers between your own accounts', 'Debit card on request'],
      },
      {
        name: 'Checking Plus',
        figure: `${pc.plusFee}/month`,
        figureLabel: `waived with a ${pc.plusWaiver} daily balance`,
        points: ['Everything in Essential Checking', 'Higher daily card limits', 'Priority support'],
      },
    ],
    featuresTitle: 'What every checking account includes',
    features: [
      { title: 'Internet banking', text: 'Balances, history and transfers from any browser, protected by a one-time code for every payment you send.' },
      {
        title: 'Transfer codes that are free',
        text: 'We send a code for each transfer to you alone. We never charge for it and never ask you for it by phone.',
      },
      { title: 'Linked savings', text: 'Your savings and checking share one account number; moving money between them takes no code and no fee.' },
    ],
    disclosure: depositNote,
    related: ['/resources/savings', '/resources/loans', '/ways-to-bank'],
  },
  {
    path: '/resources/savings',
    title: 'Savings Accounts',
    eyebrow: 'Personal banking',
    summary: `Earn up to ${s.relationshipApy} APY on savings, and up to ${s.cdApyMax} APY on certificates of deposit.`,
    art: 'coins',
    cta: 'Start saving',
    intro: [
      `Savings at ${BANK_NAME} open with ${s.openingMinimum} and earn interest from the first day. Pick the account that matches how often you need your money.`,
      'Your savings sit next to your checking under one account number, so you can move money between them at any time without a fee.',
    ],
    offersTitle: 'Savings rates',
    offers: [
      {
        name: 'Everyday Savings',
        figure: `${s.everydayApy} APY`,
        figureLabel: 'on every balance',
        points: [`Open with ${s.openingMinimum}`, 'Withdraw whenever you need to'],
      },
      {
        name: 'Premier Savings',
        figure: `${s.premierApy} APY`,
        figureLabel: 'for regular savers',
        points: ['Set up automatic monthly saving', 'No monthly fee'],
      },
      { name: 'Money Market', figure: `${s.moneyMarketApy} APY`, figureLabel: 'for larger balances', points: ['Check-writing access', 'Tiered interest'] },
      {
        name: 'Relationship Savings',
        figure: `${s.relationshipApy} APY`,
        figureLabel: 'with an active checking account',
        points: ['Our best variable savings rate', 'Linked to your checking'],
      },
      {
        name: 'Certificates of Deposit',
        figure: `up to ${s.cdApyMax} APY`,
        figureLabel: 'fixed for the term',
        points: ['Terms from 6 to 60 months', 'A penalty applies to early withdrawal'],
      },
    ],
    disclosure: {
      title: 'About these rates',
      paragraphs: [
        ...depositNote.paragraphs,
        'Certificate of deposit rates are fixed for the term you choose; withdrawing before the term ends costs an early-withdrawal penalty that can reduce the amount you put in.',
      ],
    },
    related: ['/resources/personal-checking', '/business-savings', '/resources/retirement-spouse-program'],
  },
  {
    path: '/resources/investment-solutions',
    title: 'Investment Solutions',
    eyebrow: 'Wealth and investing',
    summary: 'Managed portfolios, retirement planning and automated investing, explained in plain words.',
    art: 'growth',
    cta: 'Start investing',
    intro: [
      'Investing can help money grow faster than inflation over the long run, but its value goes down as well as up. We start with your goals, your time horizon and how much risk you can live with, and only then suggest a portfolio.',
      'Every portfolio we offer is diversified across many holdings, and we show you its fees in dollars before you commit.',
    ],
    featuresTitle: 'Ways to invest with us',
    features: [
      { title: 'Automated investor', text: 'A diversified portfolio of low-cost funds, rebalanced automatically to the risk level you choose.' },
      {
        title: 'Managed accounts (PAMM / MAM)',
        text: `Professionally managed pooled or allocated accounts, from ${inv.pammMin}. Higher risk: see the PAMM / MAM page.`,
      },
      { title: 'Retirement planning', text: 'Plans that include both spouses, with contributions you can change at any time.' },
      { title: 'Digital assets', text: 'Crypto deposits for customers who already hold digital assets, with the risks set out clearly.' },
    ],
    disclosure: investmentRisk(),
    related: ['/resources/pamm-mam', '/resources/retirement-spouse-program', '/resources/digital-assets'],
  },
  {
    path: '/resources/loans',
    title: 'Personal Loans',
    eyebrow: 'Borrowing',
    summary: `Borrow ${l.personalMin} to ${l.personalMax} at a fixed rate, repaid over ${l.termYearsMin} to ${l.termYearsMax} years.`,
    art: 'people',
    cta: 'Apply for a loan',
    intro: [
      'A personal loan gives you a fixed amount with a fixed monthly payment, so you know exactly when it will be paid off. Use it to consolidate debts, cover a large purchase or an unexpected bill.',
      `Apply online in minutes from your account for a term of ${l.termYearsMin} to ${l.termYearsMax} years. We aim to give you a decision within ${l.personalDecisionDays} business days, and there is no fee for applying. Mortgages are arranged with a specialist, not online.`,
    ],
    offersTitle: 'Our personal loans',
    offers: [
      {
        name: 'Personal Loan',
        figure: `${l.personalMin} - ${l.personalMax}`,
        figureLabel: `over ${l.termYearsMin} to ${l.termYearsMax} years`,
        points: ['Fixed rate and fixed payments', 'No early repayment fee'],
      },
      {
        name: 'Credit Builder Loan',
        figure: `${l.creditBuilderMin} - ${l.creditBuilderMax}`,
        figureLabel: 'to build a credit history',
        points: ['Payments reported to credit bureaus', 'Funds released as you repay'],
      },
      {
        name: 'Mortgage',
        figure: `${l.mortgageTermsYears.join(' / ')} years`,
        figureLabel: 'fixed-rate terms',
        points: ['Pre-approval before you make an offer', 'Talk to a mortgage specialist'],
      },
    ],
    stepsTitle: 'How to apply',
    steps: [
      'Sign in to internet banking (or create an account).',
      'Open Loans and choose Apply for a loan.',
      'Tell us the amount, the term and what it is for.',
      `Get our decision within ${l.personalDecisionDays} business days by email.`,
    ],
    disclosure: lendingNote(l.personalDecisionDays),
    related: ['/resources/auto-loan', '/resources/home-equity-line', '/business-loans'],
  },
  {
    path: '/resources/auto-loan',
    title: 'Auto Loans',
    eyebrow: 'Borrowing',
    summary: `Finance a new or used car from ${l.autoMin}, over terms up to ${l.autoTermMonthsMax} months.`,
    art: 'car',
    cta: 'Apply for an auto loan',
    intro: [
      'Get pre-approved before you visit the dealer and shop like a cash buyer. Our auto loans cover new and used cars from dealers or private sellers.',
      `Shorter terms cost less interest overall; longer terms, up to ${l.autoTermMonthsMax} months, lower the monthly payment. We show you both before you decide.`,
      `Internet banking takes applications for terms of ${l.termYearsMin} to ${l.termYearsMax} years; for a longer term, up to ${l.autoTermMonthsMax} months, send us a message and a lender will call you.`,
    ],
    offersTitle: 'Auto loan at a glance',
    offers: [
      {
        name: 'New and used cars',
        figure: `from ${l.autoMin}`,
        figureLabel: `terms up to ${l.autoTermMonthsMax} months`,
        points: ['Fixed rate', 'No early repayment fee', `Decision in ${l.personalDecisionDays} business days`],
      },
      {
        name: 'Refinance',
        figure: `up to ${l.autoTermMonthsMax} months`,
        figureLabel: 'move an existing car loan to us',
        points: ['We show the total cost side by side', 'No application fee'],
      },
    ],
    disclosure: lendingNote(l.personalDecisionDays),
    related: ['/resources/loans', '/resources/home-equity-line', '/resources/personal-checking'],
  },
  {
    path: '/resources/home-equity-line',
    title: 'Home Equity Line of Credit',
    eyebrow: 'Borrowing',
    summary: `Borrow against your home, up to ${l.helocCltvMax} combined loan-to-value, and pay interest only on what you use.`,
    art: 'house',
    cta: 'Apply for a home equity line',
    intro: [
      'A home equity line of credit (HELOC) lets you draw money as you need it, for renovations, education or large expenses, using the equity in your home as security.',
      `We lend up to ${l.helocCltvMax} of your home's value minus what you still owe on it (combined loan-to-value). The rate is variable, so your payment can rise.`,
    ],
    featuresTitle: 'How it works',
    features: [
      { title: 'Draw period', text: 'Borrow, repay and borrow again up to your limit, paying interest only on the balance you use.' },
      { title: 'Repayment period', text: 'After the draw period you repay the balance in monthly installments of principal and interest.' },
      { title: 'Your home secures the line', text: 'If you cannot repay, you could lose your home. We will talk this through with you before you sign.' },
    ],
    disclosure: lendingNote(l.personalDecisionDays),
    related: ['/resources/loans', '/commercial-real-estate', '/resources/auto-loan'],
  },
  {
    path: '/resources/digital-assets',
    title: 'Digital Assets',
    eyebrow: 'Wealth and investing',
    summary: 'Deposit Bitcoin, Ether and USDT to addresses the bank publishes, and understand the risks first.',
    art: 'coins',
    cta: 'See deposit options',
    intro: [
      'Customers who already hold digital assets can deposit them from their account page. Each currency has one address and one network; the page shows both, with a QR code, so you can check before you send.',
      'Digital assets are not money in a bank account: their prices move sharply, transfers cannot be reversed, and a coin sent on the wrong network is usually lost for good.',
    ],
    featuresTitle: 'Before you send',
    features: [
      { title: 'One symbol, one network', text: 'Send only the currency shown to its address, on the network shown. Anything else may be lost.' },
      { title: 'Confirmations take time', text: 'A deposit shows once the network has confirmed it, which can take from minutes to hours.' },
      { title: 'No one will ask for your keys', text: 'The bank never asks for your private keys or recovery phrase. Anyone who does is a fraudster.' },
    ],
    disclosure: investmentRisk([
      'Digital assets are not legal tender, are not FDIC insured and are not protected by any deposit guarantee. Their value can fall to zero, and the rules that apply to them are still changing.',
    ]),
    related: ['/resources/investment-solutions', '/resources/pamm-mam', '/contact'],
  },
  {
    path: '/resources/retirement-spouse-program',
    title: 'Retirement Spouse Program',
    eyebrow: 'Retirement',
    summary: 'A retirement plan for couples: both of you saving, both of you protected.',
    art: 'people',
    cta: 'Plan your retirement',
    intro: [
      'Many households save for retirement in one name only. If one partner stops working to care for family, that partner can reach retirement with very little in their own name. The Retirement Spouse Program lets a working partner contribute for the other.',
      'You choose how much to save each month and how it is invested, from a savings account to a diversified fund portfolio, and you can change it at any time.',
    ],
    featuresTitle: 'What the program offers',
    features: [
      { title: 'Contributions for a spouse', text: 'Save into an account in your partner’s name, within the yearly limits that apply to your plan.' },
      { title: 'A plan that can stay safe', text: `Keep contributions in savings at up to ${s.relationshipApy} APY, or invest part of them for growth.` },
      { title: 'Yearly review', text: 'We review your plan together once a year and when your circumstances change.' },
    ],
    disclosure: investmentRisk(['Tax treatment depends on your circumstances and may change; we do not give tax advice.']),
    related: ['/resources/investment-solutions', '/resources/savings', '/about-us'],
  },
  {
    path: '/resources/pamm-mam',
    title: 'PAMM and MAM Managed Accounts',
    eyebrow: 'Wealth and investing',
    summary: `Professionally managed trading accounts: PAMM from ${inv.pammMin}, MAM from ${inv.mamMin}. High risk.`,
    art: 'growth',
    cta: 'Open a managed account',
    intro: [
      'In a PAMM (percentage allocation management module) account, your money joins a pool traded by a professional manager, and gains and losses are shared in proportion to what each investor put in. In a MAM (multi-account manager) account, the manager trades across separate accounts, one of which is yours.',
      'These accounts usually trade currencies and other leveraged instruments. Leverage multiplies losses as well as gains, and a bad month can remove a large part of an account.',
    ],
    offersTitle: 'Minimums',
    offers: [
      {
        name: 'PAMM account',
        figure: `from ${inv.pammMin}`,
        figureLabel: 'pooled, shared results',
        points: ['Monthly statements', 'Performance fee only on net new gains'],
      },
      {
        name: 'MAM account',
        figure: `from ${inv.mamMin}`,
        figureLabel: 'your own allocated account',
        points: ['Set your own risk multiplier', 'Withdraw with notice as the terms set out'],
      },
    ],
    disclosure: investmentRisk([
      'Trading with leverage is high risk. Most retail investors who trade leveraged products lose money. A manager’s past results do not predict future results, and you could lose all the money you put in.',
    ]),
    related: ['/resources/investment-solutions', '/resources/digital-assets', '/contact'],
  },
  {
    path: '/resources/cannabis-investments',
    title: 'Cannabis Investments',
    eyebrow: 'Wealth and investing',
    summary: 'Funds that invest in licensed cannabis businesses and the property they operate from. Speculative.',
    art: 'leaf',
    cta: 'Sign in to invest',
    intro: [
      'Legal cannabis markets have grown quickly in states that allow it. Our funds invest in licensed growers, processors and the real estate they lease, for investors who understand that this is an early, volatile and heavily regulated sector.',
      'Cannabis remains illegal under federal law in the United States. Changes to laws, banking rules or licences can sharply reduce the value of these investments.',
    ],
    offersTitle: 'Our funds',
    offers: [
      {
        name: 'Growth Fund',
        figure: `from ${inv.cannabisGrowthMin}`,
        figureLabel: 'listed cannabis businesses',
        points: ['Diversified across many companies', 'Quarterly redemption'],
      },
      {
        name: 'Institutional Fund',
        figure: `from ${inv.cannabisInstitutionalMin}`,
        figureLabel: 'for accredited investors',
        points: ['Private companies', 'Money locked in for years'],
      },
      {
        name: 'Real Estate Fund',
        figure: `from ${inv.cannabisRealEstateMin}`,
        figureLabel: 'cultivation and retail property',
        points: ['Income from leases', 'Tenants may default'],
      },
    ],
    disclosure: investmentRisk([
      'Cannabis investments are speculative. Companies in this sector often lose money, may be unable to use normal banking services, and can lose their licences. Private fund shares may be impossible to sell when you want to.',
    ]),
    related: ['/resources/investment-solutions', '/commercial-real-estate', '/contact'],
  },
  {
    path: '/business-banking',
    title: 'Business Banking',
    eyebrow: 'Business',
    summary: 'Accounts, savings and credit for businesses of every size, with people who know your sector.',
    art: 'building',
    cta: 'Open a business account',
    intro: [
      `From a sole trader's first account to a company's payroll, ${BANK_NAME} gives businesses checking, savings and lending in one place, managed online.`,
      `Business credit decisions take ${l.businessDecisionDays} business days once we have your documents, and you speak to the same relationship manager throughout.`,
    ],
    featuresTitle: 'Business products',
    features: [
      { title: 'Business checking', text: `Two plans, from ${bc.basicFee}/month (waived at ${bc.basicWaiver}).` },
      { title: 'Business savings', text: `Up to ${s.relationshipApy} APY on reserves, and certificates of deposit up to ${s.cdApyMax} APY.` },
      { title: 'Business loans', text: 'Term loans and lines of credit for equipment, stock and growth.' },
      { title: 'Commercial real estate', text: 'Finance to buy, build or refinance the property your business uses or lets.' },
    ],
    disclosure: lendingNote(l.businessDecisionDays),
    related: ['/business-checking', '/business-savings', '/business-loans'],
  },
  {
    path: '/business-savings',
    title: 'Business Savings',
    eyebrow: 'Business',
    summary: `Put your business reserves to work: up to ${s.relationshipApy} APY, and CDs up to ${s.cdApyMax} APY.`,
    art: 'coins',
    cta: 'Open business savings',
    intro: [
      'Keep tax money, payroll buffers and reserves apart from day-to-day spending, and earn interest on them. Business savings link to your business checking so transfers between them are instant and free.',
    ],
    offersTitle: 'Business savings rates',
    offers: [
      {
        name: 'Business Savings',
        figure: `${s.everydayApy} APY`,
        figureLabel: 'instant access',
        points: ['No monthly fee', 'Free transfers to your checking'],
      },
      {
        name: 'Business Money Market',
        figure: `${s.moneyMarketApy} APY`,
        figureLabel: 'for larger balances',
        points: ['Tiered interest', 'Limited withdrawals per month'],
      },
      {
        name: 'Business Premium Savings',
        figure: `${s.relationshipApy} APY`,
        figureLabel: 'with active business checking',
        points: ['Our best variable business rate'],
      },
      { name: 'Business CDs', figure: `up to ${s.cdApyMax} APY`, figureLabel: 'fixed for the term', points: ['Early-withdrawal penalty applies'] },
    ],
    disclosure: depositNote,
    related: ['/business-checking', '/business-banking', '/resources/savings'],
  },
  {
    path: '/business-checking',
    title: 'Business Checking',
    eyebrow: 'Business',
    summary: `Two plans with ${bc.basicFreeTransactions} or ${bc.analysisFreeTransactions} free transactions a month, and fees you can waive.`,
    art: 'building',
    cta: 'Open business checking',
    intro: [
      'Pay suppliers and staff, collect from customers and see everything in one place online. Choose the plan that fits how many transactions your business makes each month.',
    ],
    offersTitle: 'Business checking plans',
    offers: [
      {
        name: 'Business Basic Checking',
        figure: `${bc.basicFee}/month`,
        figureLabel: `waived with a ${bc.basicWaiver} average balance`,
        points: [`${bc.basicFreeTransactions} free transactions a month`, 'Online banking for several users'],
      },
      {
        name: 'Business Analysis Checking',
        figure: `${bc.analysisFee}/month`,
        figureLabel: `waived with a ${bc.analysisWaiver} average balance`,
        points: [`${bc.analysisFreeTransactions} free transactions a month`, 'Earnings credit against fees'],
      },
    ],
    disclosure: {
      title: 'About these fees',
      paragraphs: [
        'Transactions beyond the free allowance are charged per item, as set out in the fee schedule you receive when you open the account. Fees may change with notice.',
      ],
    },
    related: ['/business-savings', '/business-loans', '/business-banking'],
  },
  {
    path: '/business-loans',
    title: 'Business Loans',
    eyebrow: 'Business',
    summary: `Term loans and lines of credit, with decisions in ${l.businessDecisionDays} business days.`,
    art: 'growth',
    cta: 'Apply for a business loan',
    intro: [
      'Buy equipment, stock up before a busy season or expand to a new site. We look at your business plan, accounts and cash flow, not just a score.',
      `Business loans are repayable over ${l.termYearsMin} to ${l.termYearsMax} years; lines of credit are reviewed each year.`,
    ],
    stepsTitle: 'What we need from you',
    steps: [
      'Your last two years of accounts (or projections if you are new).',
      'Recent business bank statements.',
      'What the money is for and how it will be repaid.',
      'Identity documents for each owner with 25% or more.',
    ],
    disclosure: lendingNote(l.businessDecisionDays),
    related: ['/commercial-real-estate', '/business-checking', '/resources/loans'],
  },
  {
    path: '/commercial-real-estate',
    title: 'Commercial Real Estate',
    eyebrow: 'Business',
    summary: 'Finance to buy, build or refinance offices, shops, warehouses and rental property.',
    art: 'city',
    cta: 'Apply for financing',
    intro: [
      'Whether you own the building your business runs from or let property to others, our commercial real estate lenders structure finance around the property’s income and your plans.',
      `Terms follow the property and its use; mortgage-style terms of ${l.mortgageTermsYears.join(', ')} years are available on income-producing property. Decisions take ${l.businessDecisionDays} business days after a valuation.`,
    ],
    featuresTitle: 'What we finance',
    features: [
      { title: 'Owner-occupied property', text: 'Buy the premises your business uses, instead of paying rent.' },
      { title: 'Investment property', text: 'Offices, retail units and apartment buildings let to tenants.' },
      { title: 'Construction', text: 'Staged funding for new builds and major refurbishments.' },
    ],
    disclosure: lendingNote(l.businessDecisionDays),
    related: ['/business-loans', '/resources/home-equity-line', '/business-banking'],
  },
];

export const productPageByPath = new Map<string, ProductPage>(productPages.map((page) => [page.path, page]));
