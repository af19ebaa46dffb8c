import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** A stored E.164 number (+12025550101) as people read it (+1 202 555 0101); anything else as it is. */
export function formatPhone(phone: string): string {
  return parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
}
