import { z } from 'zod';
import { controlCharactersMessage, envelope, SINGLE_LINE_TEXT, ZTimestamp } from './common';
import { ZUser } from './user';

// Second factors (issue 13, ADR 011): passkeys, an authenticator app (TOTP) with recovery codes,
// and the sign-in's second step. Named limits live here, next to the calls they bound.

/** A sign-in ticket lives this long, allows this many tries at its second step, and works once. */
export const SIGN_IN_TICKET_TTL_MS = 5 * 60 * 1000;
export const SIGN_IN_TICKET_ATTEMPTS_MAX = 5;
/** A WebAuthn challenge (registering a passkey, signing in with one) works once, within this time. */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const RECOVERY_CODES_COUNT = 10;
export const PASSKEYS_PER_USER_MAX = 10;
export const PASSKEY_NAME_LENGTH_MAX = 60;
/** RFC 6238 as every authenticator app reads it by default: SHA-1, 6 digits, 30 seconds. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** An emailed sign-in code: 6 digits, resent at most once a minute. */
export const EMAIL_SIGN_IN_CODE_RESEND_MS = 60 * 1000;

export const SECOND_FACTOR_METHODS = ['passkey', 'totp', 'recovery', 'email'] as const;
export const ZSecondFactorMethod = z
  .enum(SECOND_FACTOR_METHODS)
  .describe('passkey; totp: a code from the authenticator app; recovery: a recovery code; email: a code emailed for the ticket.');
export type SecondFactorMethodName = z.infer<typeof ZSecondFactorMethod>;

// ---------------------------------------------------------------- messages (the web app shows them as they are)

export const SECOND_FACTOR_REQUIRED_MESSAGE = 'Set up a second factor (a passkey or an authenticator app) before using the back office.';
export const TICKET_INVALID_MESSAGE = 'This sign-in has expired. Please sign in again.';
export const TICKET_EXHAUSTED_MESSAGE = 'Too many wrong attempts. Please sign in again.';
export const METHOD_NOT_OFFERED_MESSAGE = 'This sign-in cannot use that method. Please choose another.';
export const WRONG_CODE_MESSAGE = 'The code is not correct.';
export const TOTP_REPLAYED_MESSAGE = 'This code has already been used. Wait for the next code from your app.';
export const PASSKEY_REFUSED_MESSAGE = 'This passkey could not be verified. Please try again or choose another method.';
export const EMAIL_CODE_SENT_MESSAGE = 'We emailed you a sign-in code.';
export const EMAIL_CODE_WAIT_MESSAGE = 'Please wait a minute before asking for another code.';
export const TOTP_ENROL_STARTED_MESSAGE = 'Scan the QR code with your authenticator app, then enter the code it shows.';
export const TOTP_CONFIRMED_MESSAGE = 'Authenticator app set up. Save your recovery codes now: they are shown only once.';
export const TOTP_ALREADY_MESSAGE = 'An authenticator app is already set up. Remove it first to set up another.';
export const TOTP_NOT_PENDING_MESSAGE = 'Start the set-up again: there is no authenticator app waiting for confirmation.';
export const TOTP_REMOVED_MESSAGE = 'Authenticator app removed, with its recovery codes.';
export const TOTP_NOT_FOUND_MESSAGE = 'No authenticator app is set up.';
export const PASSKEY_ADDED_MESSAGE = 'Passkey added.';
export const PASSKEY_RENAMED_MESSAGE = 'Passkey renamed.';
export const PASSKEY_REMOVED_MESSAGE = 'Passkey removed.';
export const PASSKEY_NOT_FOUND_MESSAGE = 'Passkey not found';
export const NO_PASSKEY_MESSAGE = 'You have no passkey: use a code from your authenticator app or a recovery code.';
export const PASSKEYS_FULL_MESSAGE = `You can register at most ${PASSKEYS_PER_USER_MAX} passkeys. Remove one first.`;
export const STAFF_LAST_FACTOR_MESSAGE = 'Staff must keep a second factor: add another one before removing this one.';

// ---------------------------------------------------------------- fields

/** The ticket of a sign-in waiting for its second step (opaque, URL-safe). */
export const ZSignInTicket = z
  .string({ message: TICKET_INVALID_MESSAGE })
  .min(20, TICKET_INVALID_MESSAGE)
  .max(100, TICKET_INVALID_MESSAGE)
  .regex(/^[A-Za-z0-9_-]+$/, TICKET_INVALID_MESSAGE)
  .describe("The sign-in's ticket (secondFactor.ticket): 5 minutes, 5 tries, works once.");

export const SIX_DIGIT_MESSAGE = `Enter the ${TOTP_DIGITS}-digit code`;
/** A 6-digit code (authenticator app or email); spaces are ignored, as people type "123 456". */
export const ZSixDigitCode = z
  .string({ message: SIX_DIGIT_MESSAGE })
  .max(20, SIX_DIGIT_MESSAGE)
  .regex(/^[\d ]*$/, SIX_DIGIT_MESSAGE)
  .transform((value) => value.replaceAll(' ', ''))
  .pipe(z.string().regex(/^\d{6}$/, SIX_DIGIT_MESSAGE));

export const RECOVERY_CODE_MESSAGE = 'Enter one of your recovery codes, like abcd-efgh-2345-6789';
/** A recovery code as printed (xxxx-xxxx-xxxx-xxxx); case, spaces and dashes do not matter. */
export const ZRecoveryCode = z
  .string({ message: RECOVERY_CODE_MESSAGE })
  .max(40, RECOVERY_CODE_MESSAGE)
  .regex(/^[0-9A-Za-z -]*$/, RECOVERY_CODE_MESSAGE)
  .transform((value) => value.toLowerCase().replace(/[ -]+/g, ''))
  .pipe(z.string().regex(/^[0-9a-z]{16}$/, RECOVERY_CODE_MESSAGE))
  .describe('One of the recovery codes, e.g. abcd-efgh-2345-6789 (case, spaces and dashes ignored); each works once.');

export const ZPasskeyName = z
  .string({ message: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(PASSKEY_NAME_LENGTH_MAX, `Name must be at most ${PASSKEY_NAME_LENGTH_MAX} characters`)
  .regex(SINGLE_LINE_TEXT, controlCharactersMessage('Name'))
  .describe('A name to tell the passkey apart, e.g. Work laptop.');

const base64url = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .max(max, `${label} is too long`)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, `${label} must be base64url`);

const ZTransport = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
const ZPublicKeyType = z.literal('public-key').describe('Always public-key.');
const ZAttachment = z.enum(['platform', 'cross-platform']).describe('platform: built into the device; cross-platform: a security key or a phone.');
const ZCredentialId = base64url('Credential id', 1400).describe('The credential id, base64url.');

/** The fields both WebAuthn answers (a registration's and an authentication's) start with. */
const credentialFields = { id: ZCredentialId, rawId: ZCredentialId, type: ZPublicKeyType };
const ZClientDataJSON = base64url('clientDataJSON', 4096).describe('The client data (with the challenge), base64url.');

/** What @simplewebauthn/browser's startRegistration() answers (RegistrationResponseJSON), bounded. */
export const ZRegistrationResponse = z
  .object({
    ...credentialFields,
    response: z
      .object({
        clientDataJSON: ZClientDataJSON,
        attestationObject: base64url('attestationObject', 16_384).describe('The attestation object, base64url.'),
        authenticatorData: base64url('authenticatorData', 8192).optional().describe('The authenticator data, base64url.'),
        transports: z.array(ZTransport).max(8).optional().describe('How the browser reaches the authenticator.'),
        publicKeyAlgorithm: z.number().int().optional().describe('The COSE algorithm of the key, e.g. -7 (ES256).'),
        publicKey: base64url('publicKey', 4096).optional().describe('The public key (SPKI), base64url.'),
      })
      .describe("The authenticator's attestation response."),
    authenticatorAttachment: ZAttachment.optional(),
    clientExtensionResults: z
      .object({
        credProps: z
          .object({ rk: z.boolean().optional().describe('True for a discoverable credential (a resident key).') })
          .optional()
          .describe('The credProps extension.'),
      })
      .default({})
      .describe("The extensions' results."),
  })
  .meta({ id: 'PasskeyRegistrationResponse' });

/** What @simplewebauthn/browser's startAuthentication() answers (AuthenticationResponseJSON), bounded. */
export const ZAuthenticationResponse = z
  .object({
    ...credentialFields,
    response: z
      .object({
        clientDataJSON: ZClientDataJSON,
        authenticatorData: base64url('authenticatorData', 8192).describe('The authenticator data, base64url.'),
        signature: base64url('signature', 4096).describe('The signature, base64url.'),
        userHandle: base64url('userHandle', 200).optional().describe("The account's WebAuthn user handle, base64url."),
      })
      .describe("The authenticator's assertion response."),
    authenticatorAttachment: ZAttachment.optional(),
    clientExtensionResults: z.object({}).default({}).describe("The extensions' results."),
  })
  .meta({ id: 'PasskeyAuthenticationResponse' });
export type AuthenticationResponseInput = z.infer<typeof ZAuthenticationResponse>;

const ZCredentialDescriptor = z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() });

/** PublicKeyCredentialCreationOptionsJSON: what the browser's startRegistration() takes. */
export const ZRegistrationOptions = z
  .object({
    challenge: z.string(),
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
    timeout: z.number().optional(),
    excludeCredentials: z.array(ZCredentialDescriptor).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
        residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
      })
      .optional(),
    attestation: z.enum(['none', 'indirect', 'direct', 'enterprise']).optional(),
    hints: z.array(z.string()).optional(),
    extensions: z.object({ credProps: z.boolean().optional() }).optional(),
  })
  .meta({ id: 'PasskeyRegistrationOptions' });

/** PublicKeyCredentialRequestOptionsJSON: what the browser's startAuthentication() takes. */
export const ZAuthenticationOptions = z
  .object({
    challenge: z.string().describe('The challenge to sign, base64url; it works once, within 5 minutes.'),
    timeout: z.number().optional().describe('Milliseconds the browser may wait for the passkey.'),
    rpId: z.string().optional().describe("The relying party: the bank's host name."),
    allowCredentials: z.array(ZCredentialDescriptor).optional().describe("The user's passkeys (absent: any discoverable one)."),
    userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
    hints: z.array(z.string()).optional(),
  })
  .meta({ id: 'PasskeyAuthenticationOptions' });

// ---------------------------------------------------------------- the sign-in contract

/** The second step a sign-in waits for: the ticket to present, and the methods it accepts. */
export const ZSecondFactorChallenge = z
  .object({
    ticket: z.string().describe('Present it to one second step: it works for 5 minutes, 5 tries, once.'),
    methods: z.array(ZSecondFactorMethod).min(1).describe('The second steps this sign-in accepts.'),
  })
  .meta({ id: 'SecondFactorChallenge' });
export type SecondFactorChallenge = z.infer<typeof ZSecondFactorChallenge>;

export const ZSignedIn = z.object({ token: z.string().describe('The session token: send it as Authorization: Bearer <token>.'), user: ZUser });
/**
 * POST /api/auth/signin and /api/auth/admin/signin: the session (token and user) for an account
 * without a second factor; for one with a factor, `{ secondFactor: { ticket, methods } }` and no
 * session (ADR 011: the deviation from the spec's "token and user").
 */
export const ZPasswordSignInAnswer = envelope(
  z.union([ZSignedIn, z.object({ secondFactor: ZSecondFactorChallenge.describe('No session yet: the second step this sign-in waits for.') })]),
);
export type PasswordSignInResult = z.infer<typeof ZPasswordSignInAnswer>['data'];

export const ZTotpSignInRequest = z.object({ ticket: ZSignInTicket, code: ZSixDigitCode.describe('The 6-digit code the authenticator app shows now.') });
export const ZRecoverySignInRequest = z.object({ ticket: ZSignInTicket, code: ZRecoveryCode });
export const ZEmailCodeSignInRequest = z.object({ ticket: ZSignInTicket, code: ZSixDigitCode.describe('The 6-digit code emailed for this ticket.') });
export const ZTicketRequest = z.object({ ticket: ZSignInTicket });
/** With a ticket: the passkey is the second step; without: the passkey alone signs in (a discoverable credential). */
const ZPasskeyTicket = ZSignInTicket.optional().describe("The sign-in's ticket when the passkey is its second step; absent: the passkey alone signs in.");
export const ZPasskeySignInOptionsRequest = z.object({ ticket: ZPasskeyTicket });
export const ZPasskeySignInRequest = z.object({
  ticket: ZPasskeyTicket,
  response: ZAuthenticationResponse.describe("The browser's answer to the options' challenge (startAuthentication())."),
});
export const ZAuthenticationOptionsAnswer = envelope(ZAuthenticationOptions);

// ---------------------------------------------------------------- managing factors

export const ZPasskey = z
  .object({ id: z.string(), name: z.string(), createdAt: ZTimestamp, lastUsedAt: ZTimestamp.nullable().describe('When it was last used; null: never.') })
  .meta({ id: 'Passkey' });
export type PasskeyDto = z.infer<typeof ZPasskey>;
export const ZPasskeyListAnswer = envelope(z.array(ZPasskey));
export const ZPasskeyAnswer = envelope(ZPasskey);
export const ZRegistrationOptionsAnswer = envelope(ZRegistrationOptions);
export const ZPasskeyRegisterRequest = z.object({
  name: ZPasskeyName.optional().describe('A name to tell the passkey apart; absent: "Passkey on" the browser and system it was made on.'),
  response: ZRegistrationResponse.describe("The browser's answer to the creation options (startRegistration())."),
});
export const ZPasskeyRenameRequest = z.object({ name: ZPasskeyName });

// ---------------------------------------------------------------- a fresh factor (ADR 011, ADR 025)

export const SECOND_FACTOR_CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app or one of your recovery codes';

/**
 * The fresh second factor a sensitive change carries (changing the password or the email, removing
 * a factor): `secondFactorCode`, a code from the authenticator app (accepted once) or a recovery
 * code (spent); or `secondFactorPasskey`, a passkey's answer to POST /api/auth/step-up/passkey/options.
 */
export const ZFreshFactorFields = {
  secondFactorCode: z
    .string({ message: SECOND_FACTOR_CODE_MESSAGE })
    .max(40, SECOND_FACTOR_CODE_MESSAGE)
    .regex(/^[0-9A-Za-z -]*$/, SECOND_FACTOR_CODE_MESSAGE)
    .transform((value) => value.replace(/[ -]+/g, '').toLowerCase())
    .pipe(z.string().regex(/^(\d{6}|[0-9a-z]{16})$/, SECOND_FACTOR_CODE_MESSAGE))
    .optional()
    .describe('With a second factor set up: a code from the authenticator app (accepted once) or a recovery code (spent).'),
  secondFactorPasskey: ZAuthenticationResponse.optional().describe('Or a passkey: its answer to POST /api/auth/step-up/passkey/options.'),
};

/** The body of DELETE /api/auth/passkeys/{id} and DELETE /api/auth/totp: the fresh factor (required, ADR 025). */
export const ZFactorRemovalRequest = z.object(ZFreshFactorFields);
export type FactorRemovalRequest = z.input<typeof ZFactorRemovalRequest>;
export type PasskeyNameInput = z.infer<typeof ZPasskeyRenameRequest>;

/** The signed-in user's factors, and whether they must enrol one before anything else (staff without one). */
export const ZFactorSummary = z
  .object({
    passkeys: z.number().int().describe('How many passkeys.'),
    totp: z.boolean().describe('Whether an authenticator app is set up.'),
    recoveryCodesLeft: z.number().int().describe('Recovery codes not used yet.'),
    enrolmentRequired: z.boolean().describe('Staff without a factor: they must set one up before anything else.'),
  })
  .meta({ id: 'FactorSummary' });
export type FactorSummary = z.infer<typeof ZFactorSummary>;
export const ZFactorSummaryAnswer = envelope(ZFactorSummary);

/** The secret once, to scan (uri as a QR code) or type: no call returns it again. */
export const ZTotpEnrolAnswer = envelope(
  z.object({ secret: z.string().describe('The secret, base32.'), uri: z.string().describe('The otpauth:// URI, to show as a QR code.') }),
);
export const ZTotpConfirmRequest = z.object({ code: ZSixDigitCode.describe('The 6-digit code the authenticator app shows now.') });
export type TotpCodeInput = z.infer<typeof ZTotpConfirmRequest>;
/** The recovery codes, shown once. */
export const ZTotpConfirmAnswer = envelope(z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODES_COUNT).describe('Each works once.') }));
