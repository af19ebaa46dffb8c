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
  approval: z
    .enum(PAYMENT_APPROVAL_METHODS, { message: 'approval must be passkey or code' })
    .optional()
    .describe('First call only: code asks for the emailed IMS code although the customer has a passkey.'),
  /** Second call: the passkey's answer to the challenge the first call handed out. */
  passkeyAssertion: ZAuthenticationResponse.optional().describe("Second call: the passkey's answer (startAuthentication()) to the first call's options."),
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
    result: z
      .enum(PAYEE_CHECK_RESULTS)
      .describe(
        "match: the holder's name; close_match: nearly (a typo, initials, a middle name), accountName gives it; no_match; unavailable: an account at another bank.",
      ),
    /** The account holder's name: given with `close_match` only. */
    accountName: z.string().optional().describe("The account holder's name: with close_match only."),
  })
  .meta({ id: 'PayeeCheck' });
export type PayeeCheck = z.infer<typeof ZPayeeCheck>;
/** A bulk payment's row whose name is not its account holder's (rows that match are not listed); never with the holder's name. */
export const ZRowPayeeCheck = z
  .object({
    row: z.number().int().describe('The payment, counted from 1 (a CSV: its lines after the header).'),
    result: z.enum(PAYEE_CHECK_RESULTS).describe("The row's name against the account holder's: close_match or no_match (the holder is never named)."),
  })
  .meta({ id: 'RowPayeeCheck' });
export type RowPayeeCheck = z.infer<typeof ZRowPayeeCheck>;

/**
 * How many more approval steps (emailed IMS codes or passkey prompts) the customer may ask for in
 * the hour after this one (TRANSFER_CODES_PER_HOUR, ADR 016): the step says so before "Send a new
 * code" runs out. Absent where the limit is off.
 */
export const ZCodesLeft = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe('How many more IMS codes (or passkey prompts) the customer may ask for in the next hour after this one; absent where the limit is off.');

/** The first call's answer for a customer with a passkey: what the passkey will approve, and the WebAuthn options. */
export const ZPasskeyApprovalStep = z
  .object({
    step: z.literal('passkey').describe('Approve with a passkey: the second call carries passkeyAssertion, signed over options.'),
    expiresAt: ZTimestamp.describe('The challenge works until then (5 minutes), once.'),
    /** Dollars. */
    amount: z.number().describe('What the passkey approves, in dollars (a bulk payment: its total).'),
    currency: z.literal('USD'),
    payee: z.string().describe('Who is paid, as the payment names them.'),
    description: z.string().nullable().describe("The payment's description; null without one."),
    /** A transfer by account number: the recipient name checked against the account's holder. */
    payeeCheck: ZPayeeCheck.optional().describe("The recipient name checked against the account's holder; absent when no name is checked."),
    /** A bulk payment: its rows whose name is not the account holder's (none: every name matches). */
    payeeChecks: z.array(ZRowPayeeCheck).optional().describe("A bulk payment: its rows whose name is not the account holder's (empty: every name matches)."),
    codesLeft: ZCodesLeft,
    /** For @simplewebauthn/browser's startAuthentication(); the challenge is derived from this payment. */
    options: ZAuthenticationOptions.describe('For startAuthentication(): the challenge is derived from exactly this payment.'),
  })
  .meta({ id: 'PasskeyApprovalStep' });
export type PasskeyApprovalStep = z.infer<typeof ZPasskeyApprovalStep>;
