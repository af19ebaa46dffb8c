import { z } from 'zod';
import { countryOptions } from '../countries';
import { dateOfBirth } from '../dates';
import { ADDRESS_LENGTH_MAX, NAME_LENGTH_MAX, OTP_LENGTH, PASSWORD_LENGTH_MAX, PASSWORD_LENGTH_MIN, PHONE_LENGTH_MAX } from '../limits';
import { ACCOUNT_TYPES, EMPLOYMENT_TYPE_VALUES, SALARY_RANGES, SEX_OPTIONS } from '../reference';
import { controlCharactersMessage, envelope, requiredText, SINGLE_LINE_TEXT, ZEmail } from './common';
import { normalizePhone } from './profile';
import { ZUser } from './user';

export const PASSWORD_RULE_MESSAGE = `Password must be at least ${PASSWORD_LENGTH_MIN} characters`;
export const PHONE_INVALID_MESSAGE = 'Please enter a valid phone number';

// What each call answers (the spec's wording; the web app shows them as they are).
export const SIGNED_UP_MESSAGE = 'Account created. We emailed you a verification code; sign in to enter it.';
export const EMAIL_VERIFIED_MESSAGE = 'Email verified';
export const CODE_SENT_MESSAGE = 'Email sent successfully';
export const RESET_LINK_SENT_MESSAGE = 'If an account exists for this email, we have sent a link to reset the password. It is valid for 30 minutes.';
export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. Please sign in with the new password.';
export const SIGNED_OUT_MESSAGE = 'Signed out';
export const PASSWORD_CHANGED_MESSAGE = 'Password updated successfully';

export const ZNewPassword = z
  .string({ message: 'Password is required' })
  .min(PASSWORD_LENGTH_MIN, PASSWORD_RULE_MESSAGE)
  .max(PASSWORD_LENGTH_MAX, `Password must be at most ${PASSWORD_LENGTH_MAX} characters`)
  .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password'));

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
    firstName: requiredText('First name', NAME_LENGTH_MAX),
    lastName: requiredText('Last name', NAME_LENGTH_MAX),
    email: ZEmail,
    address: requiredText('Address', ADDRESS_LENGTH_MAX),
    dateOfBirth: ZDateOfBirth,
    sex: z.enum(SEX_OPTIONS, { message: 'Please choose one of the listed options for sex' }),
    countryCode: z
      .string({ message: 'Country is required' })
      .trim()
      .min(1, 'Country is required')
      .regex(/^\+?[0-9]{1,4}$/, 'Please choose a country from the list')
      .transform((value) => value.replace(/^\+/, ''))
      .refine((value) => countryOptions().some((country) => country.dialCode === value), 'Please choose a country from the list'),
    phone: z
      .string({ message: 'Phone is required' })
      .trim()
      .min(1, 'Phone is required')
      .max(PHONE_LENGTH_MAX, `Phone must be at most ${PHONE_LENGTH_MAX} characters`)
      .regex(/^\+?[0-9 ()-]{4,}$/, PHONE_INVALID_MESSAGE),
    occupation: z.enum(EMPLOYMENT_TYPE_VALUES, { message: 'Please choose an employment type from the list' }),
    annualIncomeRange: z.enum(SALARY_RANGES, { message: 'Please choose a salary range from the list' }),
    accountType: z.enum(ACCOUNT_TYPES, { message: 'Please choose an account type (Savings, Checking or Joint)' }),
    ssnTIN: z.string().trim().max(32, 'SSN/TIN must be at most 32 characters').regex(SINGLE_LINE_TEXT, controlCharactersMessage('SSN/TIN')).optional(),
    password: ZNewPassword,
    confirmPassword: z
      .string({ message: 'Please confirm your password' })
      .max(PASSWORD_LENGTH_MAX)
      .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password')),
  })
  .superRefine((value, ctx) => {
    if (!signUpPhone(value.phone, value.countryCode)) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: PHONE_INVALID_MESSAGE });
    }
    if (value.password !== value.confirmPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match' });
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

export const ZSignInRequest = z.object({
  email: z
    .string({ message: 'Please fill in all fields' })
    .trim()
    .min(1, 'Please fill in all fields')
    .max(254)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Email'))
    .transform((v) => v.toLowerCase()),
  password: z
    .string({ message: 'Please fill in all fields' })
    .min(1, 'Please fill in all fields')
    .max(PASSWORD_LENGTH_MAX, 'Invalid email or password')
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password')),
});

/** The session token (for API clients; browsers use the cookie) and the signed-in user. */
export const ZSignInAnswer = envelope(z.object({ token: z.string(), user: ZUser }));
export type SignInResponse = z.infer<typeof ZSignInAnswer>['data'];

export const ZVerifyEmailRequest = z.object({
  otp: z
    .string({ message: `OTP must be ${OTP_LENGTH} characters long` })
    .trim()
    .length(OTP_LENGTH, `OTP must be ${OTP_LENGTH} characters long`)
    .regex(/^\d+$/, 'OTP must be 6 digits'),
});

export const ZForgotPasswordRequest = z.object({ email: ZEmail });

export const ZResetPasswordRequest = z
  .object({
    token: z
      .string({ message: 'The reset link is invalid or has expired' })
      .min(10, 'The reset link is invalid or has expired')
      .max(200, 'The reset link is invalid or has expired')
      .regex(/^[A-Za-z0-9_-]+$/, 'The reset link is invalid or has expired'),
    password: ZNewPassword,
    confirmPassword: z.string().max(PASSWORD_LENGTH_MAX).regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password')).optional(),
  })
  .refine((value) => value.confirmPassword === undefined || value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match',
  });

export const ZChangePasswordRequest = z.object({
  oldPassword: z
    .string({ message: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(PASSWORD_LENGTH_MAX, `Password must be at most ${PASSWORD_LENGTH_MAX} characters`)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password')),
  newPassword: ZNewPassword,
});
