import { EMAIL_CODE_TTL_MS, PASSWORD_RESET_TTL_MS } from '../../shared/limits';
import { routes } from '../../shared/routes';
import type { Config } from '../config';
import { bankDateTime } from '../lib/bank-time';
import type { MailMessage } from './mailer';

export interface Brand {
  bankName: string;
  publicUrl: string;
  /** BANK_TIMEZONE: every time a mail states is on the bank's clock, the zone named. */
  timeZone: string;
}

/** Who every email is from and where its links point. */
export const brandOf = (config: Pick<Config, 'bankName' | 'publicUrl' | 'timeZone'>): Brand => ({
  bankName: config.bankName,
  publicUrl: config.publicUrl,
  timeZone: config.timeZone,
});

/** The auth mails name the same limits the code enforces, so the text cannot drift from them. */
const minutes = (ms: number) => `${ms / 60_000} minutes`;

const footer = (brand: Brand) =>
  `\n\n${brand.bankName} will never ask you for this code or your password by phone or email, and never charges for a code.\n${brand.publicUrl}`;

export function verificationCodeMail(brand: Brand, to: string, firstName: string, code: string): MailMessage {
  return {
    to,
    subject: `Your ${brand.bankName} verification code: ${code}`,
    text: `Hello ${firstName},\n\nYour email verification code is ${code}. It is valid for ${minutes(EMAIL_CODE_TTL_MS)}.${footer(brand)}`,
  };
}

/** Outgoing payments held after too many wrong transfer codes in a day. */
export function paymentsHeldMail(brand: Brand, to: string, firstName: string, hold: { failures: number; until: Date }): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: outgoing payments on hold`,
    text:
      `Hello ${firstName},\n\nAfter ${hold.failures} failed payment approvals today (wrong IMS codes or refused passkey answers), we have put your ` +
      `outgoing payments on hold until ${bankDateTime(hold.until, brand.timeZone)}. Moves between your own accounts still work. If it was you, contact support and we can ` +
      `release the hold sooner. If you did not, someone may be using your sign-in: change your password and contact support.${footer(brand)}`,
  };
}

export function passwordResetMail(brand: Brand, to: string, firstName: string, link: string): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: reset your password`,
    text:
      `Hello ${firstName},\n\nUse this link within ${minutes(PASSWORD_RESET_TTL_MS)} to choose a new password. It works once.\n\n${link}\n\n` +
      `If you did not ask for this, ignore this email: your password stays as it is.${footer(brand)}`,
  };
}

export function passwordChangedMail(brand: Brand, to: string, firstName: string): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: your password was changed`,
    text: `Hello ${firstName},\n\nYour password was just changed and your other sessions were signed out. If this was not you, contact support at once.${footer(brand)}`,
  };
}

/** To the owner of an email someone tried to open a new account with (sign-up never says it is taken). */
export function signUpAttemptMail(brand: Brand, to: string, firstName: string): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: someone tried to open an account with your email`,
    text:
      `Hello ${firstName},\n\nSomeone just tried to open a new ${brand.bankName} account with this email address. You already have one, so nothing was opened and nothing changed.\n\n` +
      `If it was you, sign in at ${brand.publicUrl}/signin, or choose a new password at ${brand.publicUrl}/forgot-password if you have forgotten it. ` +
      `If it was not you, you need not do anything.${footer(brand)}`,
  };
}

/**
 * A sign-in from a device the customer has not used before. Sent whatever notification choices
 * exist: it is how a customer learns that someone else has their password.
 */
export function newDeviceSignInMail(brand: Brand, to: string, firstName: string, sign: { device: string; ip: string | null; at: Date }): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: new sign-in from ${sign.device}`,
    text:
      `Hello ${firstName},\n\nYour account was just signed in to from a device we have not seen before:\n\n` +
      `  Device: ${sign.device}\n  Address: ${sign.ip ?? 'unknown'}\n  Time: ${bankDateTime(sign.at, brand.timeZone)}\n\n` +
      `If this was you, there is nothing to do. If it was not, change your password at ${brand.publicUrl}/forgot-password at once, ` +
      `end the session under Security (${brand.publicUrl}/account/security) and contact support.${footer(brand)}`,
  };
}

/** The code of a sign-in's emailed second step (a ticket with the "email" method, ADR 011). */
export function signInCodeMail(brand: Brand, to: string, firstName: string, code: string, validMs: number, failures = 0): MailMessage {
  // Asked for by the throttle of ADR 016: the owner hears why, and that the password is known.
  const why =
    failures > 0
      ? `We ask for it because there were ${failures} failed attempts to sign in to your account. The right password was just entered: ` +
        `if that was not you, someone knows your password. Do not share this code, reset your password at ${brand.publicUrl}/forgot-password ` +
        `and contact support.`
      : `If you are not signing in right now, someone has your password: change it at ${brand.publicUrl}/forgot-password and contact support.`;
  return {
    to,
    subject: `Your ${brand.bankName} sign-in code: ${code}`,
    text: `Hello ${firstName},\n\nYour sign-in code is ${code}. It is valid for ${minutes(validMs)} and works once.\n\n${why}${footer(brand)}`,
  };
}

/** A second factor was added to or removed from the account: the owner hears of it whoever did it. */
export function secondFactorChangedMail(brand: Brand, to: string, firstName: string, change: string): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: ${change}`,
    text:
      `Hello ${firstName},\n\n${change} on your account just now. You can see how you sign in under Security (${brand.publicUrl}/account/security).\n\n` +
      `If this was not you, change your password at ${brand.publicUrl}/forgot-password at once and contact support.${footer(brand)}`,
  };
}

/**
 * An email change took effect (ADR 025): sent to the old address (in case it was not its owner)
 * and to the new one; the other sessions were signed out.
 */
export function emailChangedMail(brand: Brand, to: string, firstName: string, oldEmail: string, newEmail: string): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: your email address was changed`,
    text:
      `Hello ${firstName},\n\nThe email of your account was changed from ${oldEmail} to ${newEmail}, and your other sessions were signed out. ` +
      `From now on you sign in with ${newEmail}.\n\nIf this was not you, contact support at once.${footer(brand)}`,
  };
}

/**
 * Support started recovering the account (ADR 025): the notice goes at once, with a link that
 * cancels it, so the owner has the whole delay to stop someone who talked their way past support.
 */
export function recoveryStartedMail(brand: Brand, to: string, firstName: string, recovery: { effectiveAt: Date; cancelLink: string }): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: account recovery requested`,
    text:
      `Hello ${firstName},\n\nOur support team has started recovering your account, after checking your identity, because you told us you lost ` +
      `every second factor (passkeys, authenticator app and recovery codes). On ${bankDateTime(recovery.effectiveAt, brand.timeZone)} your second factors will be ` +
      `removed and your other sessions signed out, so that you can sign in with your password and set up a new one.\n\n` +
      `If this was not you, cancel it now with this link (it works until then):\n\n${recovery.cancelLink}\n\n` +
      `You can also cancel it under Security (${brand.publicUrl}${routes.accountSecurity.path}) while you are signed in, and please contact support.${footer(brand)}`,
  };
}

/** The recovery took effect, or was cancelled: the owner hears of either. */
export function recoveryOutcomeMail(brand: Brand, to: string, firstName: string, outcome: 'completed' | 'cancelled'): MailMessage {
  return outcome === 'completed'
    ? {
        to,
        subject: `${brand.bankName}: your account was recovered`,
        text:
          `Hello ${firstName},\n\nAs support arranged, your second factors were removed and every session was signed out. Sign in with your password ` +
          `and set up a passkey or an authenticator app again under Security (${brand.publicUrl}${routes.accountSecurity.path}).\n\n` +
          `If this was not you, contact support at once.${footer(brand)}`,
      }
    : {
        to,
        subject: `${brand.bankName}: account recovery cancelled`,
        text: `Hello ${firstName},\n\nThe recovery of your account was cancelled: nothing was changed. Your second factors stay as they were.${footer(brand)}`,
      };
}

/** A notification the customer chose to get by email (issue 14); their choices are one link away. */
export function notificationMail(brand: Brand, to: string, firstName: string, notification: { title: string; body: string; link: string | null }): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: ${notification.title}`,
    text:
      `Hello ${firstName},\n\n${notification.body}\n\n` +
      (notification.link ? `${brand.publicUrl}${notification.link}\n\n` : '') +
      `Choose which notifications you get by email at ${brand.publicUrl}${routes.accountNotifications.path}.${footer(brand)}`,
  };
}

export function plainMail(brand: Brand, to: string, subject: string, body: string): MailMessage {
  return { to, subject: `${brand.bankName}: ${subject}`, text: `${body}${footer(brand)}` };
}

/**
 * To ANCHOR_EMAIL: one anchor line, so a copy of the chain heads lives where no database user can
 * reach it. The line is alone on its own line of the body, byte for byte as in ANCHOR_FILE.
 */
export function anchorMail(brand: Brand, to: string, anchor: { seq: number; at: string }, line: string): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: ledger anchor ${anchor.seq} (${anchor.at})`,
    text:
      `Anchor ${anchor.seq}, written at ${anchor.at}: the heads of the ledger chain and of the audit chain, signed with the bank's key.\n\n` +
      `${line}\n\n` +
      `Keep this mail. "npm run ledger:verify" checks every line of ANCHOR_FILE against the chains; a copy kept here shows whether a line was changed or removed there.\n` +
      brand.publicUrl,
  };
}

/** To a new staff member (ADR 022): a link to set a first password; a second factor follows at first sign-in. */
export function staffInvitationMail(
  brand: Brand,
  to: string,
  message: { firstName: string; roleLabel: string; invitedBy: string; link: string; validDays: number },
): MailMessage {
  return {
    to,
    subject: `${brand.bankName}: you are invited to the back office`,
    text:
      `Hello ${message.firstName},\n\n${message.invitedBy} has invited you to the ${brand.bankName} back office as ${message.roleLabel}.\n\n` +
      `Use this link within ${message.validDays} days to choose your password. It works once.\n\n${message.link}\n\n` +
      `Then sign in at ${brand.publicUrl}${routes.adminLogin.path} and set up a second factor (an authenticator app or a passkey) before anything else.\n\n` +
      `If you did not expect this, ignore this email: nothing happens until the link is used.${footer(brand)}`,
  };
}
