// Reference lists from the specification (section 3). Values are contracts: clients send them.

export const SEX_OPTIONS = ['Male', 'Female', 'Other', 'Prefer not to say'] as const;

export const SALARY_RANGES = [
  '$100.00 - $500.00',
  '$700.00 - $1,000.00',
  '$1,000.00 - $2,000.00',
  '$2,000.00 - $5,000.00',
  '$5,000.00 - $10,000.00',
  '$15,000.00 - $20,000.00',
  '$25,000.00 - $30,000.00',
  '$30,000.00 - $70,000.00',
  '$80,000.00 - $140,000.00',
  '$150,000.00 - $300,000.00',
  '$300,000.00 - $1,000,000.00',
] as const;

export const EMPLOYMENT_TYPES = [
  { value: 'self-emp', label: 'Self Employed' },
  { value: 'public', label: 'Public/Government Office' },
  { value: 'private', label: 'Private/Partnership Office' },
  { value: 'business', label: 'Business/Sales' },
  { value: 'trading', label: 'Trading/Market' },
  { value: 'military', label: 'Military/Paramilitary' },
  { value: 'politician', label: 'Politician/Celebrity' },
] as const;

export const EMPLOYMENT_TYPE_VALUES = EMPLOYMENT_TYPES.map((type) => type.value) as [string, ...string[]];

export const ACCOUNT_TYPES = ['Savings', 'Checking', 'Joint'] as const;

export const VERIFICATION_STATUSES = ['awaiting', 'verified', 'pending', 'failed'] as const;
