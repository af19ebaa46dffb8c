import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { ADDRESS_LENGTH_MAX, EMAIL_LENGTH_MAX, NAME_LENGTH_MAX, OTP_LENGTH, PASSWORD_LENGTH_MAX, PHONE_LENGTH_MAX, STATE_LENGTH_MAX } from '../limits';
import { controlCharactersMessage, envelope, requiredText, safeString, SINGLE_LINE_TEXT } from './common';
import { ZFreshFactorFields } from './factors';
import { ZUser } from './user';

export const PHONE_MESSAGE = 'Please enter a valid phone number, with its country code (e.g. +1 202 555 0101)';
export const PROFILE_UPDATED_MESSAGE = 'Profile updated successfully';
export const NAME_READ_ONLY_MESSAGE = 'Your first and last name can only be changed by the bank. Please contact support.';

/**
 * A phone number as libphonenumber-js understands it, written in international format.
 * `dialCode` (the customer's country dial code) lets a number be typed without its "+".
 */
export function normalizePhone(value: string, dialCode?: string | null): string | null {
  const text = value.trim();
  if (!text || text.length > PHONE_LENGTH_MAX + 5) return null;
  const candidate = text.startsWith('+') ? text : dialCode ? `+${dialCode}${text.replace(/^0+/, '')}` : `+${text}`;
  if (!isValidPhoneNumber(candidate)) return null;
  return parsePhoneNumberFromString(candidate)?.number ?? null;
}

/**
 * PATCH /api/user/profile. First and last name are shown read-only and may be sent back
 * unchanged. A new email needs the current password and, for an account with a second factor, a
 * fresh one (`secondFactorCode` or `secondFactorPasskey`, ADR 025); the code mailed to the new
 * address confirms it in a second call carrying `emailCode`.
 */
export const ZProfileUpdateRequest = z.object({
  firstName: z
    .string()
    .trim()
    .max(NAME_LENGTH_MAX)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('First name'))
    .optional()
    .describe('Read-only: may be sent back unchanged; another name is refused (403).'),
  lastName: z
    .string()
    .trim()
    .max(NAME_LENGTH_MAX)
    .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Last name'))
    .optional()
    .describe('Read-only: may be sent back unchanged; another name is refused (403).'),
  email: z
    .string()
    .trim()
    .max(EMAIL_LENGTH_MAX, `Email must be at most ${EMAIL_LENGTH_MAX} characters`)
    .regex(SINGLE_LINE_TEXT, 'Please enter a valid email address')
    .pipe(z.email('Please enter a valid email address'))
    .transform((email) => email.toLowerCase())
    .optional()
    .describe('A new email: the first call (with password) mails a code to it; the second, with emailCode, makes the change.'),
  phoneNumber: z
    .string()
    .trim()
    .min(1, 'Phone number is required')
    .max(PHONE_LENGTH_MAX + 5, PHONE_MESSAGE)
    .regex(SINGLE_LINE_TEXT, PHONE_MESSAGE)
    .optional()
    .describe("The phone number; without a leading + it is read in the customer's country. Stored in E.164."),
  address: requiredText('Address', ADDRESS_LENGTH_MAX).optional().describe('The postal address.'),
  state: requiredText('State', STATE_LENGTH_MAX).optional().describe('The state or region.'),
  password: safeString('Password', PASSWORD_LENGTH_MAX).optional().describe('The current password: required to change the email.'),
  emailCode: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `The code must be ${OTP_LENGTH} digits`)
    .optional()
    .describe('The 6-digit code mailed to the new email (valid 10 minutes): the second call of an email change.'),
  ...ZFreshFactorFields,
});
export type ProfileUpdateRequest = z.input<typeof ZProfileUpdateRequest>;

/**
 * The answer to PATCH /api/user/profile: the user, and beside it whether a code was mailed to a
 * new address (the email is not changed until that code comes back).
 */
export const ZProfileUpdateAnswer = envelope(ZUser).extend({
  /** True when a code was mailed to the new address and the email is not changed yet. */
  emailChangePending: z.boolean().describe('True when a code was mailed to the new address and the email is not changed yet.'),
  pendingEmail: z.string().nullable().describe('The new address waiting for its code; null otherwise.'),
});

export const PROFILE_PICTURE_FIELD = 'profilePicture';
export const PROFILE_PICTURE_UPDATED_MESSAGE = 'Profile picture updated';
/** The types a stored profile picture can have (uploads are re-encoded as JPEG or PNG). */
export const PROFILE_PICTURE_MEDIA_TYPES = ['image/jpeg', 'image/png'] as const;

/** The multipart form of PATCH /api/user/profile-picture: one image. */
export const PROFILE_PICTURE_FORM = {
  files: { [PROFILE_PICTURE_FIELD]: 'The picture: a JPEG, PNG or WebP image' } as Record<typeof PROFILE_PICTURE_FIELD, string>,
  missing: { message: 'Please choose a picture to upload.', field: 'No file selected' },
};
