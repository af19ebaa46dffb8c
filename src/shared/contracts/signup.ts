import { z } from 'zod';
import { countryOptions } from '../countries';
import { dateOfBirth } from '../dates';
import { ADDRESS_LENGTH_MAX, NAME_LENGTH_MAX, PASSWORD_LENGTH_MAX, PHONE_LENGTH_MAX } from '../limits';
import { ACCOUNT_TYPES, EMPLOYMENT_TYPE_VALUES, SALARY_RANGES, SEX_OPTIONS } from '../reference';
import { PHONE_INVALID_MESSAGE, ZNewPassword } from './auth';
import { controlCharactersMessage, requiredText, SINGLE_LINE_TEXT, ZEmail } from './common';
import { normalizePhone } from './profile';

// POST /api/auth/signup. Its own module: the phone and country checks bring libphonenumber's data,
// which the sign-in and reset pages (they import ./auth) must not download.

/**
 * The phone a customer types at sign-up, in E.164 (+12025550101): a number without its "+" is
 * read in the chosen country's dial code, and libphonenumber-js must accept it, as on the
 * profile (which would otherwise refuse every later save of a number stored as typed).
 */
export function signUpPhone(phone: string, dialCode: string): string | null {
  return normalizePhone(phone, dialCode);
}

const ZDateOfBirth = dateOfBirth({ required: 'Date of birth is required', underage: 'You must be at least 18 years old to open an account' });

export const ZSignUpRequest = z
  .object({
    firstName: requiredText('First name', NAME_LENGTH_MAX).describe("The customer's first name."),
    lastName: requiredText('Last name', NAME_LENGTH_MAX).describe("The customer's last name."),
    email: ZEmail.describe('The email address to sign in with; a code sent there confirms it.'),
    address: requiredText('Address', ADDRESS_LENGTH_MAX).describe('The postal address.'),
    dateOfBirth: ZDateOfBirth.describe('YYYY-MM-DD; the customer must be 18 to 120 years old.'),
    sex: z.enum(SEX_OPTIONS, { message: 'Please choose one of the listed options for sex' }).describe('One of the listed options.'),
    countryCode: z
      .string({ message: 'Country is required' })
      .trim()
      .min(1, 'Country is required')
      .regex(/^\+?[0-9]{1,4}$/, 'Please choose a country from the list')
      .transform((value) => value.replace(/^\+/, ''))
      .refine((value) => countryOptions().some((country) => country.dialCode === value), 'Please choose a country from the list')
      .describe("The country's dial code, e.g. 1 or +44."),
    phone: z
      .string({ message: 'Phone is required' })
      .trim()
      .min(1, 'Phone is required')
      .max(PHONE_LENGTH_MAX, `Phone must be at most ${PHONE_LENGTH_MAX} characters`)
      .regex(/^\+?[0-9 ()-]{4,}$/, PHONE_INVALID_MESSAGE)
      .describe("The phone number; without a leading + it is read in countryCode's country. Stored in E.164."),
    occupation: z.enum(EMPLOYMENT_TYPE_VALUES, { message: 'Please choose an employment type from the list' }).describe('The employment type.'),
    annualIncomeRange: z.enum(SALARY_RANGES, { message: 'Please choose a salary range from the list' }).describe('The yearly income range, as listed.'),
    accountType: z.enum(ACCOUNT_TYPES, { message: 'Please choose an account type (Savings, Checking or Joint)' }).describe('The account asked for.'),
    ssnTIN: z
      .string()
      .trim()
      .max(32, 'SSN/TIN must be at most 32 characters')
      .regex(SINGLE_LINE_TEXT, controlCharactersMessage('SSN/TIN'))
      .optional()
      .describe('The tax number: required unless countryCode is 1, where it is not kept.'),
    password: ZNewPassword,
    confirmPassword: z
      .string({ message: 'Please confirm your password' })
      .max(PASSWORD_LENGTH_MAX)
      .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password'))
      .describe('The password again: it must match.'),
  })
  // Checked with the other fields' problems, not after them (a customer would otherwise learn of it
  // only once everything else is right): whenever both passwords are text.
  .refine((value) => value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
    when: (payload) => {
      const value = payload.value as { password?: unknown; confirmPassword?: unknown };
      return typeof value.password === 'string' && typeof value.confirmPassword === 'string';
    },
  })
  .superRefine((value, ctx) => {
    if (!signUpPhone(value.phone, value.countryCode)) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: PHONE_INVALID_MESSAGE });
    }
    if (value.countryCode !== '1' && !value.ssnTIN) {
      ctx.addIssue({ code: 'custom', path: ['ssnTIN'], message: 'SSN/TIN is required' });
    }
  })
  .transform((value) => ({
    ...value,
    phone: signUpPhone(value.phone, value.countryCode) ?? value.phone,
    ssnTIN: value.countryCode === '1' ? undefined : value.ssnTIN,
  }));

export type SignUpRequest = z.input<typeof ZSignUpRequest>;
export type SignUpInput = z.output<typeof ZSignUpRequest>;
