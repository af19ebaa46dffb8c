import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { stepUpWithPasskey } from './step-up-passkey';

/** The fresh-factor fields a sensitive change carries (ADR 025): the contract's ZFreshFactorFields. */
export interface FreshFactorBody {
  secondFactorCode?: string;
  secondFactorPasskey?: AuthenticationResponseJSON;
}

/**
 * What the user typed, or else their passkey's answer (the browser's prompt): a code from the
 * authenticator app or a recovery code when one was typed; the passkey when the field was left
 * empty and the account has one; nothing otherwise (the server then names the missing field).
 */
export async function freshFactorBody(code: string, factors: { passkeys: number } | undefined): Promise<FreshFactorBody> {
  const typed = code.trim();
  if (typed) return { secondFactorCode: typed };
  if ((factors?.passkeys ?? 0) > 0) return { secondFactorPasskey: await stepUpWithPasskey() };
  return {};
}
