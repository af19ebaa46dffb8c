import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { WEBAUTHN_CHALLENGE_TTL_MS } from '../../shared/contracts/factors';
import type { Config } from '../config';
import type { DB } from '../db/database';
import type { Passkey } from '../db/schema';
import * as repository from './repository';

// Passkeys (WebAuthn) through @simplewebauthn/server. The relying party is PUBLIC_URL: its host is
// the RP id (browsers refuse an IP address, so a passkey needs a name such as localhost) and its
// origin the only origin a ceremony may come from. A challenge is random, stored, and spent by
// the first response that carries it; a ceremony whose challenge is derived from something else
// (a transfer it approves) passes that challenge to verifyPasskeyAssertion itself.

export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export function relyingPartyOf(config: Pick<Config, 'publicUrl' | 'bankName'>): RelyingParty {
  const url = new URL(config.publicUrl);
  return { id: url.hostname, name: config.bankName, origin: url.origin };
}

const TIMEOUT_MS = WEBAUTHN_CHALLENGE_TTL_MS;

type Transport = NonNullable<WebAuthnCredential['transports']>[number];
const TRANSPORTS: ReadonlySet<string> = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
export const knownTransports = (values: readonly string[] | undefined): Transport[] =>
  (values ?? []).filter((value): value is Transport => TRANSPORTS.has(value));

/** The challenge a browser signed, read from its clientDataJSON (undefined when it is not readable). */
export function challengeOf(response: { response: { clientDataJSON: string } }): string | undefined {
  try {
    const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof clientData.challenge === 'string' && clientData.challenge.length <= 128 ? clientData.challenge : undefined;
  } catch {
    return undefined;
  }
}

/** Creation options for a user's new passkey: discoverable (it can sign in alone), none of theirs twice. */
export async function registrationOptions(
  db: DB,
  config: Pick<Config, 'publicUrl' | 'bankName'>,
  user: { id: string; email: string; displayName: string },
  existing: Array<{ credential_id: string; transports: string[] }>,
  now: Date,
) {
  const rp = relyingPartyOf(config);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.displayName,
    userID: Buffer.from(user.id.replaceAll('-', ''), 'hex'),
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credential_id, transports: knownTransports(passkey.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await repository.insertChallenge(db, {
    challenge: options.challenge,
    purpose: 'registration',
    userId: user.id,
    ticketId: null,
    audience: null,
    expiresAt: new Date(now.getTime() + WEBAUTHN_CHALLENGE_TTL_MS),
  });
  return options;
}

/**
 * Checks a new passkey against a challenge the server issued to this user for registration
 * (spent here, so it works once). Answers the credential to store, or null when it does not verify.
 */
export async function verifyRegistration(
  db: DB,
  config: Pick<Config, 'publicUrl' | 'bankName'>,
  userId: string,
  response: RegistrationResponseJSON,
  now: Date,
) {
  const challenge = challengeOf(response);
  if (!challenge) return null;
  const issued = await repository.spendChallenge(db, challenge, 'registration', now);
  if (!issued || issued.user_id !== userId) return null;
  const rp = relyingPartyOf(config);
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    return verified.verified ? verified.registrationInfo.credential : null;
  } catch {
    // A malformed or forged response is a refusal, never a 500.
    return null;
  }
}

/** Request options: any discoverable passkey of this site (no list), or one of `allow` (a known user's). */
export async function authenticationOptions(
  config: Pick<Config, 'publicUrl' | 'bankName'>,
  allow: Array<{ credential_id: string; transports: string[] }> | null,
  userVerification: 'required' | 'preferred',
) {
  return generateAuthenticationOptions({
    rpID: relyingPartyOf(config).id,
    timeout: TIMEOUT_MS,
    userVerification,
    ...(allow ? { allowCredentials: allow.map((passkey) => ({ id: passkey.credential_id, transports: knownTransports(passkey.transports) })) } : {}),
  });
}

/**
 * The assertion check every use of a passkey goes through: the response must name a passkey the
 * bank knows (of `userId`, when given), be signed over exactly `expectedChallenge` for this
 * relying party and origin, with user verification when `requireUserVerification`, and carry a
 * counter that moved on (when the authenticator keeps one). On success the passkey's counter and
 * last use are recorded and the passkey is answered; anything else answers null.
 */
export async function verifyPasskeyAssertion(
  db: DB,
  config: Pick<Config, 'publicUrl' | 'bankName'>,
  check: { response: AuthenticationResponseJSON; expectedChallenge: string; userId: string | null; requireUserVerification: boolean },
): Promise<Passkey | null> {
  const passkey = await repository.findPasskeyByCredentialId(db, check.response.id);
  if (!passkey || (check.userId !== null && passkey.user_id !== check.userId)) return null;
  const rp = relyingPartyOf(config);
  try {
    const verified = await verifyAuthenticationResponse({
      response: check.response,
      expectedChallenge: check.expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: check.requireUserVerification,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: passkey.counter,
        transports: knownTransports(passkey.transports),
      },
    });
    if (!verified.verified) return null;
    await repository.notePasskeyUsed(db, passkey.id, verified.authenticationInfo.newCounter);
    return passkey;
  } catch {
    return null;
  }
}
