// Every figure and fact an operator edits, in one place (DESIGN.md rule 7). Pages read these;
// nothing else in the web app hard-codes a rate, fee, minimum, term or decision time.
// Display only: the figures describe products; they do not drive any calculation in the bank.

export const figures = {
  savings: {
    everydayApy: '1.50%',
    premierApy: '1.75%',
    moneyMarketApy: '1.85%',
    relationshipApy: '2.25%',
    cdApyMax: '3.00%',
    /** Yearly interest shown on the home page's second slide. */
    yearlyExample: '$144/yr',
    openingMinimum: '$0',
  },
  personalChecking: {
    essentialFee: '$5',
    essentialWaiver: 'with a monthly direct deposit',
    plusFee: '$10',
    plusWaiver: '$2,500',
  },
  businessChecking: {
    basicFee: '$15',
    basicWaiver: '$5,000',
    basicFreeTransactions: '200',
    analysisFee: '$25',
    analysisWaiver: '$15,000',
    analysisFreeTransactions: '500',
  },
  loans: {
    personalMin: '$2,500',
    personalMax: '$50,000',
    creditBuilderMin: '$500',
    creditBuilderMax: '$3,000',
    termYearsMin: 1,
    termYearsMax: 5,
    autoTermMonthsMax: 72,
    autoMin: '$5,000',
    mortgageTermsYears: [15, 20, 30],
    helocCltvMax: '85%',
    personalDecisionDays: '1-3',
    businessDecisionDays: '5-10',
  },
  investments: {
    pammMin: '$10,000',
    mamMin: '$25,000',
    cannabisGrowthMin: '$25,000',
    cannabisInstitutionalMin: '$100,000',
    cannabisRealEstateMin: '$50,000',
  },
  about: {
    founded: 2005,
    countries: '30+',
    charitableContributions: '$10M+',
    volunteerHours: '5,000+',
    communityPartnerships: '100+',
  },
} as const;

export const heroHeightPx = 500;
