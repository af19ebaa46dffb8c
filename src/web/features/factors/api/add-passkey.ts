import type { PasskeyDto } from '../../../../shared/contracts/factors';
import { api, ApiError } from '../../../lib/api';

export const PASSKEY_CANCELLED_MESSAGE = 'No passkey was created: the prompt was closed or timed out. Please try again.';
export const PASSKEYS_UNSUPPORTED_MESSAGE = 'This browser cannot create passkeys. Use an authenticator app instead.';

/**
 * Registers a passkey: the server's creation options, the browser's prompt (the WebAuthn code is
 * loaded only now, so no other page carries it), then the signed answer. Answers the server's message.
 */
export async function addPasskey(name: string | undefined): Promise<string | undefined> {
  const { browserSupportsWebAuthn, startRegistration } = await import('@simplewebauthn/browser');
  if (!browserSupportsWebAuthn()) throw new ApiError(PASSKEYS_UNSUPPORTED_MESSAGE, 0, 'unsupported');
  const { data: options } = await api.post<Parameters<typeof startRegistration>[0]['optionsJSON']>('/auth/passkeys/register/options');
  let response;
  try {
    response = await startRegistration({ optionsJSON: options });
  } catch {
    throw new ApiError(PASSKEY_CANCELLED_MESSAGE, 0, 'cancelled');
  }
  return (await api.post<PasskeyDto>('/auth/passkeys/register', { ...(name ? { name } : {}), response })).message;
}
