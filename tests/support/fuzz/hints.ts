import type { Person } from './world';

/**
 * Values for fields whose rules a JSON Schema cannot carry: a checksum (ABA routing numbers, IBANs),
 * a list kept in code (wire countries, dialling codes), a product's limits (a personal loan is
 * $2,500 to $50,000), two fields that must agree (a password and its confirmation), or a real
 * account at this bank. Valid requests take them for most fields of these names, so they get past
 * the contract into the service; the rest of each body still comes from the document.
 */
export function fieldHints(owner: Person, other: Person): Record<string, readonly unknown[]> {
  return {
    from: [owner.accountNumber],
    accountNumber: [other.accountNumber, other.accountNumber, '12345678'],
    routingNumber: ['', '021000021', '011000015'],
    bankName: ['First Example Bank'],
    beneficiaryAccount: ['DE89370400440532013000', 'GB82WEST12345698765432'],
    swiftCode: ['DEUTDEFF', 'NWBKGB2L'],
    country: ['DE', 'GB'],
    loanAmount: [5000, '7500.50', 30_000],
    loanType: ['personal', 'business'],
    savings: [0, 150, '2500.75'],
    checking: [0, 320.5, '4000'],
    number: [owner.accountNumber],
    countryCode: ['1'],
    phone: ['+1 202 555 0101'],
    phoneNumber: ['+1 202 555 0199'],
    amount: [12.5, '40', 1],
  };
}

/** Fields that must repeat another one. */
export const SAME_AS: Record<string, string> = { confirmPassword: 'password' };

/** Choices that must differ from another field's (money moves between two different accounts). */
export const DIFFERENT_FROM: Record<string, string> = { to: 'from' };
