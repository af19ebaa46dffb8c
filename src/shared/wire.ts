import { getCountries } from 'libphonenumber-js/min';

// Wire transfers: destination countries, SWIFT/BIC and account checks, the specification's account types.

/** About 40 destination countries (ISO 3166-1 alpha-2); names come from the runtime's CLDR data. */
export const WIRE_COUNTRY_CODES = [
  'US',
  'CA',
  'MX',
  'BR',
  'AR',
  'CL',
  'CO',
  'PE',
  'GB',
  'IE',
  'FR',
  'DE',
  'NL',
  'BE',
  'LU',
  'CH',
  'AT',
  'IT',
  'ES',
  'PT',
  'SE',
  'NO',
  'DK',
  'FI',
  'PL',
  'CZ',
  'GR',
  'AE',
  'SA',
  'IL',
  'TR',
  'ZA',
  'NG',
  'KE',
  'EG',
  'IN',
  'CN',
  'HK',
  'JP',
  'KR',
  'SG',
  'AU',
  'NZ',
  'PH',
] as const;

export type WireCountryCode = (typeof WIRE_COUNTRY_CODES)[number];

export interface WireCountry {
  code: WireCountryCode;
  name: string;
}

let countries: WireCountry[] | undefined;
export function wireCountries(): WireCountry[] {
  if (countries) return countries;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  countries = WIRE_COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return countries;
}

export const isWireCountry = (code: string): code is WireCountryCode => (WIRE_COUNTRY_CODES as readonly string[]).includes(code);

/** The specification's wire account types, values as shown. */
export const WIRE_ACCOUNT_TYPES = [
  'PERSONAL (Savings)',
  'CURRENT',
  'CHECKING',
  'FIX DEPOSIT',
  'NON RESIDENT',
  'ONLINE BANKING',
  'DOMICILIARY ACCOUNT',
  'JOINT ACCOUNT',
] as const;

const BIC_PATTERN = /^([A-Z]{4})([A-Z]{2})([A-Z0-9]{2})([A-Z0-9]{3})?$/;

/** SWIFT/BIC (ISO 9362): 4-letter institution, ISO country, 2-character location, optional 3-character branch. */
export function isValidBic(value: string): boolean {
  const match = BIC_PATTERN.exec(value.trim().toUpperCase());
  if (!match) return false;
  return isoCountries().has(match[2] ?? '');
}

let iso: Set<string> | undefined;
/** ISO 3166-1 regions as libphonenumber-js knows them (plus XK, which SWIFT uses for Kosovo). */
function isoCountries(): Set<string> {
  iso ??= new Set<string>([...getCountries(), 'XK']);
  return iso;
}

/** The country a BIC belongs to (characters 5-6). */
export const bicCountry = (bic: string) => bic.trim().toUpperCase().slice(4, 6);

/** IBAN mod-97 check (ISO 13616). */
export function isValidIban(value: string): boolean {
  const iban = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** A beneficiary account: an IBAN (checked) or a domestic account number of 4 to 34 letters and digits. */
export function isValidBeneficiaryAccount(value: string): boolean {
  const compact = value.replace(/[\s-]+/g, '').toUpperCase();
  if (/^[A-Z]{2}[0-9]{2}/.test(compact) && compact.length >= 15) return isValidIban(compact);
  return /^[A-Z0-9]{4,34}$/.test(compact);
}

/** ABA routing number: 9 digits with the 3-7-1 checksum. */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value)) return false;
  const d = value.split('').map(Number) as number[];
  const sum = 3 * ((d[0] ?? 0) + (d[3] ?? 0) + (d[6] ?? 0)) + 7 * ((d[1] ?? 0) + (d[4] ?? 0) + (d[7] ?? 0)) + ((d[2] ?? 0) + (d[5] ?? 0) + (d[8] ?? 0));
  return sum % 10 === 0;
}
