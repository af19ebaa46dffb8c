import type { z } from 'zod';
import type { PasskeyApprovalStep } from '../../shared/contracts/payment-approval';
import type { ZAuthenticationResponse } from '../../shared/contracts/factors';
import { ApiError } from './api';

export const APPROVAL_PROMPT_CLOSED_MESSAGE = 'The passkey prompt was closed or timed out. Approve again, or use an emailed IMS code.';
export const APPROVAL_UNSUPPORTED_MESSAGE = 'This browser cannot use passkeys. Use an emailed IMS code instead.';

/** A passkey's answer as the payment contracts take it (the browser's AuthenticationResponseJSON). */
export type PasskeyAssertion = z.input<typeof ZAuthenticationResponse>;

/** The fields a payment call's second step carries (ADR 024): one approval, or the first call's choice of the code. */
export interface ApprovalFields {
  paymentPin?: string;
  passkeyAssertion?: PasskeyAssertion;
  approval?: 'code';
}

/**
 * The browser's passkey prompt for a payment: the challenge comes from the server's first call and
 * is derived from exactly that payment, so the answer approves it and nothing else. The WebAuthn
 * code is loaded only now, so no page carries it until a customer approves with a passkey.
 */
export async function approveWithPasskey(step: PasskeyApprovalStep): Promise<PasskeyAssertion> {
  const { browserSupportsWebAuthn, startAuthentication } = await import('@simplewebauthn/browser');
  if (!browserSupportsWebAuthn()) throw new ApiError(APPROVAL_UNSUPPORTED_MESSAGE, 0, 'unsupported');
  try {
    const response = await startAuthentication({ optionsJSON: step.options as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
    // The contract keeps no client extension output (none is asked for).
    return { ...response, clientExtensionResults: {} } as PasskeyAssertion;
  } catch {
    throw new ApiError(APPROVAL_PROMPT_CLOSED_MESSAGE, 0, 'cancelled');
  }
}
