import { randomBytes } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '../../shared/contracts/factors';

// RFC 6238 as every authenticator app reads it by default: SHA-1, 6 digits, 30-second steps.
// A code is checked against the step before, the step of and the step after the server's clock
// (a phone a few seconds off, a code typed as it turned over); the step it matched is remembered
// per user, so a code (or an older one) is accepted once (repository.claimTotpStep).

const ALGORITHM = 'SHA1';
/** Steps either side of now that a code may come from. */
export const TOTP_WINDOW_STEPS = 1;

/** Base32 (RFC 4648, no padding): what ADMIN_TOTP_SECRET and the enrolment answer carry. */
export const BASE32_SECRET = /^[A-Z2-7]{16,128}$/;

/** A new secret of 160 bits (RFC 4226's recommendation for SHA-1), base32. */
export const newTotpSecret = (): string => new Secret({ buffer: randomBytes(20).buffer as ArrayBuffer }).base32;

/** A secret as people type it: spaces and padding dropped, upper case. */
export const normaliseBase32 = (value: string): string => value.replace(/[\s=]+/g, '').toUpperCase();

/** The 30-second step a moment falls in. */
export const totpStepAt = (at: Date): number => Math.floor(at.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/** The code of one step (what an authenticator app shows during it). */
export function totpCodeForStep(secret: string, step: number): string {
  return HOTP.generate({ secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: TOTP_DIGITS, counter: step });
}

/** The code an authenticator app shows at a moment. */
export const totpCodeAt = (secret: string, at: Date): string => totpCodeForStep(secret, totpStepAt(at));

/** The step a code belongs to, within the window around `at`; null when it matches none. */
export function matchTotpStep(secret: string, code: string, at: Date): number | null {
  const step = totpStepAt(at);
  const delta = HOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: TOTP_DIGITS,
    counter: step,
    window: TOTP_WINDOW_STEPS,
  });
  return delta === null ? null : step + delta;
}

/** The otpauth:// URI an authenticator app scans (as a QR code) to enrol. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS }).toString();
}

/**
 * The demo bank's staff secret (DEMO_MODE=true without ADMIN_TOTP_SECRET): published in the README
 * like the demo passwords, printed at start with its QR code, and refused in production.
 * `npm run demo:totp` prints its current code.
 */
export const DEMO_ADMIN_TOTP_SECRET = 'LEDGERLINE2DEMO2STAFF2TOTP2SECRT';

/**
 * The secret the first admin is enrolled with at first start: ADMIN_TOTP_SECRET, else in demo mode
 * the demo secret, else none (the admin enrols at first sign-in). The seed and `npm run demo:totp`
 * both read it here.
 */
export function firstAdminTotpSecret(config: { adminTotpSecret: string | undefined; demoMode: boolean }): string | undefined {
  return config.adminTotpSecret ?? (config.demoMode ? DEMO_ADMIN_TOTP_SECRET : undefined);
}
