import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';

export interface CountryOption {
  /** ISO 3166-1 alpha-2 region code, unique per option. */
  region: CountryCode;
  /** The dial code without "+", the value the registration payload carries as `countryCode`. */
  dialCode: string;
  /** "Name (+code)", as the specification shows. */
  label: string;
}

let cache: CountryOption[] | undefined;

/** Every country libphonenumber-js knows, named by the runtime's CLDR data: no hand-typed list. */
export function countryOptions(): CountryOption[] {
  if (cache) return cache;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  cache = getCountries()
    .map((region) => {
      const dialCode = getCountryCallingCode(region);
      const name = names.of(region) ?? region;
      return { region, dialCode, label: `${name} (+${dialCode})` };
    })
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
  return cache;
}

export function isKnownDialCode(dialCode: string): boolean {
  return countryOptions().some((country) => country.dialCode === dialCode);
}
