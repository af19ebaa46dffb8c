import fs from 'node:fs';
import { passwordStrength } from '../../shared/password-strength';
import { badRequest } from '../lib/errors';
import { DEMO_ADMIN_PASSWORD, DEMO_CUSTOMER_PASSWORD } from '../seed';

// The server decides whether a new password is acceptable (the web forms only show the estimate).
// The contract already holds it to 8..128 characters without control characters; here it must not
// be one of the most common breached passwords (a list shipped in the repository, see its header),
// nor a password this project publishes, and zxcvbn must score it PASSWORD_SCORE_MIN or more.

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose a less predictable one.';
export const PUBLISHED_PASSWORD_MESSAGE = 'This password is published in our documentation. Please choose your own.';
export const WEAK_PASSWORD_MESSAGE = 'This password is too easy to guess.';

let commonPasswords: Set<string> | undefined;

/** The shipped list, read once: one lower-case password a line, after the `#` header. */
function commonPasswordList(): Set<string> {
  commonPasswords ??= new Set(
    fs
      .readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return commonPasswords;
}

/** The README's demo sign-ins: anyone can read them, so no account may choose them. */
const PUBLISHED_PASSWORDS = new Set([DEMO_ADMIN_PASSWORD, DEMO_CUSTOMER_PASSWORD].map((password) => password.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return commonPasswordList().has(password.toLowerCase());
}

/**
 * Refuses a new password that is common, published or guessable, with a message that says why
 * (zxcvbn's warning and first suggestion when it has them). `userInputs` are words an attacker
 * would try first for this account (names, email, the bank's name).
 */
export function assertPasswordAllowed(password: string, userInputs: string[] = [], field = 'password'): void {
  const refuse = (message: string): never => {
    throw badRequest(message, { [field]: message });
  };
  if (PUBLISHED_PASSWORDS.has(password.toLowerCase())) refuse(PUBLISHED_PASSWORD_MESSAGE);
  if (isCommonPassword(password)) refuse(COMMON_PASSWORD_MESSAGE);
  const strength = passwordStrength(password, userInputs);
  if (!strength.strongEnough) {
    refuse([WEAK_PASSWORD_MESSAGE, strength.warning, strength.suggestions[0]].filter(Boolean).join(' '));
  }
}
