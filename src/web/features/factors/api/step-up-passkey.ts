import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { api, ApiError } from '../../../lib/api';

export const STEP_UP_CANCELLED_MESSAGE = 'The passkey prompt was closed or timed out. Please try again.';
export const STEP_UP_UNSUPPORTED_MESSAGE = 'This browser cannot use passkeys. Use a code from your authenticator app or a recovery code.';

/**
 * A fresh passkey proof for a sensitive change (ADR 011): the server's challenge
 * (POST /api/auth/step-up/passkey/options), then the browser's prompt. The change's call carries
 * the answer. The WebAuthn code is loaded only now.
 */
export async function stepUpWithPasskey(): Promise<AuthenticationResponseJSON> {
  const { browserSupportsWebAuthn, startAuthentication } = await import('@simplewebauthn/browser');
  if (!browserSupportsWebAuthn()) throw new ApiError(STEP_UP_UNSUPPORTED_MESSAGE, 0, 'unsupported');
  const { data: options } = await api.post<Parameters<typeof startAuthentication>[0]['optionsJSON']>('/auth/step-up/passkey/options');
  try {
    return await startAuthentication({ optionsJSON: options });
  } catch {
    throw new ApiError(STEP_UP_CANCELLED_MESSAGE, 0, 'cancelled');
  }
}
