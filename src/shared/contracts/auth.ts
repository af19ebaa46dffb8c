import { z } from 'zod';
import { OTP_LENGTH, PASSWORD_LENGTH_MAX, PASSWORD_LENGTH_MIN } from '../limits';
import { controlCharactersMessage, envelope, SINGLE_LINE_TEXT, ZEmail } from './common';
import { SECOND_FACTOR_CODE_MESSAGE, ZFreshFactorFields } from './factors';
import { ZUser } from './user';

export const PASSWORD_RULE_MESSAGE = `Password must be at least ${PASSWORD_LENGTH_MIN} characters`;
export const PHONE_INVALID_MESSAGE = 'Please enter a valid phone number';

// What each call answers (the spec's wording; the web app shows them as they are).
/** The same for a new email and one that has an account (whose owner is emailed instead): no enumeration. */
export const SIGNED_UP_MESSAGE = 'Check your email: we sent you a verification code. Sign in to enter it.';
export const EMAIL_VERIFIED_MESSAGE = 'Email verified';
export const CODE_SENT_MESSAGE = 'Email sent successfully';
export const RESET_LINK_SENT_MESSAGE = 'If an account exists for this email, we have sent a link to reset the password. It is valid for 30 minutes.';
export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. Please sign in with the new password.';
export const SIGNED_OUT_MESSAGE = 'Signed out';
export const PASSWORD_CHANGED_MESSAGE = 'Password updated successfully';
export { SECOND_FACTOR_CODE_MESSAGE };
/** A change that needs a fresh second factor (password, factors) asked without one. */
export const FRESH_FACTOR_REQUIRED_MESSAGE = "Confirm it's you with your second factor: a code from your authenticator app, a recovery code or your passkey.";
export const FRESH_FACTOR_REFUSED_MESSAGE = 'That second factor was not accepted: the code is wrong or already used, or the passkey could not be verified.';

export const ZNewPassword = z
  .string({ message: 'Password is required' })
  .min(PASSWORD_LENGTH_MIN, PASSWORD_RULE_MESSAGE)
  .max(PASSWORD_LENGTH_MAX, `Password must be at most ${PASSWORD_LENGTH_MAX} characters`)
  .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password'))
  .describe('A new password: 8 to 128 characters, not a common one, and hard to guess (zxcvbn score 3 or more).');

export const ZSignInRequest = z.object({
  email: z
    .string({ message: 'Please fill in all fields' })
    .trim()
    .min(1, 'Please fill in all fields')
    .max(254)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Email'))
    .transform((v) => v.toLowerCase())
    .describe("The account's email address (case does not matter)."),
  password: z
    .string({ message: 'Please fill in all fields' })
    .min(1, 'Please fill in all fields')
    .max(PASSWORD_LENGTH_MAX, 'Invalid email or password')
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password'))
    .describe("The account's password."),
});

/** The session token (for API clients; browsers use the cookie) and the signed-in user. */
export const ZSignedIn = z.object({ token: z.string().describe('The session token: send it as Authorization: Bearer <token>.'), user: ZUser });
export type SignInResponse = z.infer<typeof ZSignedIn>;

/** A session: the answer of a sign-in without a second step, and of a completed second step. */
export const ZSignInAnswer = envelope(ZSignedIn);
/** POST /auth/signin answers a ticket offering "email" with this message (ADR 016; the ticket is ADR 011's, contracts/factors.ts). */
export const SIGN_IN_CODE_SENT_MESSAGE = 'We emailed you a code to finish signing in.';

export const ZVerifyEmailRequest = z.object({
  otp: z
    .string({ message: `OTP must be ${OTP_LENGTH} characters long` })
    .trim()
    .length(OTP_LENGTH, `OTP must be ${OTP_LENGTH} characters long`)
    .regex(/^\d+$/, 'OTP must be 6 digits')
    .describe('The 6-digit code emailed to confirm the address.'),
});

export const ZForgotPasswordRequest = z.object({ email: ZEmail.describe('The email address of the account whose password was forgotten.') });

export const ZResetPasswordRequest = z
  .object({
    token: z
      .string({ message: 'The reset link is invalid or has expired' })
      .min(10, 'The reset link is invalid or has expired')
      .max(200, 'The reset link is invalid or has expired')
      .regex(/^[A-Za-z0-9_-]+$/, 'The reset link is invalid or has expired')
      .describe('The token of the emailed reset link (its ?token=); it works once, for 30 minutes.'),
    password: ZNewPassword,
    confirmPassword: z
      .string()
      .max(PASSWORD_LENGTH_MAX)
      .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password'))
      .optional()
      .describe('The new password again; when sent, it must match.'),
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
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Password'))
    .describe('The current password.'),
  newPassword: ZNewPassword,
  /**
   * For an account with a second factor (ADR 011): a code from its authenticator app or one of its
   * recovery codes, fresh for this change; or a passkey's answer to POST /api/auth/step-up/passkey/options.
   */
  ...ZFreshFactorFields,
});
