import { z } from 'zod';
import { ZTimestamp } from './common';
import { ZAuthenticationOptions, ZAuthenticationResponse } from './factors';

// Approving a payment (issue 13's dynamic linking, ADR 024). Every call that sends money away
// (a transfer, a wire, paying a request, a standing order's mandate, a bulk batch) takes the same
// two calls: the first answers the approval step, the second carries the approval.
// - A customer with a passkey: the first call answers `{ step: "passkey", options, ... }`, whose
//   WebAuthn challenge is derived from exactly this payment; the second carries `passkeyAssertion`.
// - Everyone else, or a first call with `approval: "code"`: the first call emails an IMS code and
//   answers `{ step: "code", ... }`; the second carries `paymentPin`.

export const PAYMENT_APPROVAL_METHODS = ['passkey', 'code'] as const;
export type PaymentApprovalMethod = (typeof PAYMENT_APPROVAL_METHODS)[number];

export const APPROVAL_BOTH_MESSAGE = 'Approve with your passkey or with the IMS code, not both.';
export const PASSKEY_APPROVAL_MISSING_MESSAGE = 'No passkey approval is waiting for this payment. Please start again.';
export const PASSKEY_APPROVAL_USED_MESSAGE = 'This approval has already been used. Please start again.';
export const PASSKEY_APPROVAL_EXPIRED_MESSAGE = 'This approval has expired. Please start again.';
export const PASSKEY_APPROVAL_MISMATCH_MESSAGE =
  'This approval was given for a different payment: the amount, payee or description has changed. Please approve this payment again.';
export const PASSKEY_APPROVAL_REFUSED_MESSAGE = 'Your passkey did not approve this payment. Please try again or use an IMS code.';

/** The fields every payment call's body may carry besides `paymentPin`. */
export const ZApprovalFields = {
  /** First call only: "code" asks for the emailed IMS code although the customer has a passkey. */
  approval: z.enum(PAYMENT_APPROVAL_METHODS, { message: 'approval must be passkey or code' }).optional(),
  /** Second call: the passkey's answer to the challenge the first call handed out. */
  passkeyAssertion: ZAuthenticationResponse.optional(),
};

/**
 * Confirmation of payee (ADR 029): how the recipient name the customer typed compares with the
 * holder of the account at this bank, told on the approval step, before anything is approved.
 * `close_match` names the holder (as the UK's Confirmation of Payee and the EU's Verification of
 * Payee do), so the customer can correct a typo; `no_match` does not. `unavailable`: an account at
 * another bank, whose holder this bank cannot see.
 */
export const PAYEE_CHECK_RESULTS = ['match', 'close_match', 'no_match', 'unavailable'] as const;
export type PayeeCheckResult = (typeof PAYEE_CHECK_RESULTS)[number];
export const ZPayeeCheck = z
  .object({
    result: z.enum(PAYEE_CHECK_RESULTS),
    /** The account holder's name: given with `close_match` only. */
    accountName: z.string().optional(),
  })
  .meta({ id: 'PayeeCheck' });
export type PayeeCheck = z.infer<typeof ZPayeeCheck>;
/** A bulk payment's row whose name is not its account holder's (rows that match are not listed); never with the holder's name. */
export const ZRowPayeeCheck = z.object({ row: z.number().int(), result: z.enum(PAYEE_CHECK_RESULTS) }).meta({ id: 'RowPayeeCheck' });
export type RowPayeeCheck = z.infer<typeof ZRowPayeeCheck>;

/** The first call's answer for a customer with a passkey: what the passkey will approve, and the WebAuthn options. */
export const ZPasskeyApprovalStep = z
  .object({
    step: z.literal('passkey'),
    expiresAt: ZTimestamp,
    /** Dollars. */
    amount: z.number(),
    currency: z.literal('USD'),
    payee: z.string(),
    description: z.string().nullable(),
    /** A transfer by account number: the recipient name checked against the account's holder. */
    payeeCheck: ZPayeeCheck.optional(),
    /** A bulk payment: its rows whose name is not the account holder's (none: every name matches). */
    payeeChecks: z.array(ZRowPayeeCheck).optional(),
    /** For @simplewebauthn/browser's startAuthentication(); the challenge is derived from this payment. */
    options: ZAuthenticationOptions,
  })
  .meta({ id: 'PasskeyApprovalStep' });
export type PasskeyApprovalStep = z.infer<typeof ZPasskeyApprovalStep>;
