import { createHash, randomBytes } from 'node:crypto';
import type { PaymentApprovalKind } from '../db/schema';
import { canonicalJson } from '../ledger/chain';
import { assert } from '../lib/errors';

// Dynamic linking (PSD2 RTS article 5, ADR 024): what an approval is bound to. Every kind of
// payment describes itself as one PaymentSubject; its canonical encoding is hashed into the
// binding that an emailed code is stored under and that a passkey's challenge is derived from.
// One function for all five kinds, so no kind can forget a field: the account the money leaves,
// the amount and currency, the payee, the description, and the kind's own terms (a mandate's
// schedule, a batch's rows, the request being paid).

export interface PaymentSubject {
  kind: PaymentApprovalKind;
  /** The ledger account the money leaves. */
  fromAccountId: string;
  amountCents: number;
  currency?: 'USD';
  /** Everything that identifies where the money goes (account number, bank, name...). */
  payee: Record<string, unknown>;
  /** The memo the customer typed, or null. */
  description: string | null;
  /** What else the approval covers for this kind (schedule, rows hash, request id). */
  terms?: Record<string, unknown>;
}

/**
 * Refuses what is not JSON before it is encoded: only finite numbers, strings, booleans, null,
 * arrays and plain members (an undefined member is left out, an undefined item is null), so no
 * NaN or function can slip into a binding as null.
 */
function assertJson(value: unknown): void {
  if (value === null || value === undefined || typeof value === 'boolean' || typeof value === 'string') return;
  if (typeof value === 'number') {
    assert(Number.isFinite(value), 'a canonical number is finite');
    return;
  }
  assert(typeof value === 'object', `a canonical value is JSON (got ${typeof value})`);
  for (const item of Array.isArray(value) ? value : Object.values(value)) assertJson(item);
}

/** The version of the encoding: bumped if the subject's shape ever changes meaning. */
const ENCODING = 'ledgerline-payment-approval/1';

/** The payment's binding: SHA-256 (hex) over the canonical encoding of exactly this payment. */
export function paymentBinding(subject: PaymentSubject): string {
  assert(Number.isSafeInteger(subject.amountCents) && subject.amountCents > 0, 'an approved amount is a positive number of cents');
  const subjectJson = {
    v: ENCODING,
    kind: subject.kind,
    from: subject.fromAccountId,
    amountCents: subject.amountCents,
    currency: subject.currency ?? 'USD',
    payee: subject.payee,
    description: subject.description,
    terms: subject.terms ?? {},
  };
  assertJson(subjectJson);
  // Keys sorted by code unit, no whitespace: the ledger's canonical JSON (one encoder in the bank).
  const encoded = canonicalJson(subjectJson);
  return createHash('sha256').update(encoded, 'utf8').digest('hex');
}

/** A fresh server nonce: 32 random bytes, base64url. */
export const newApprovalNonce = (): string => randomBytes(32).toString('base64url');

/**
 * The WebAuthn challenge for one payment: SHA-256(nonce bytes || binding bytes), base64url (the
 * form clientDataJSON carries it in). The nonce makes each approval unique (no replay of an older
 * one for an equal payment); the binding makes it this payment's and no other's.
 */
export function approvalChallenge(binding: string, nonce: string): string {
  return createHash('sha256').update(Buffer.from(nonce, 'base64url')).update(Buffer.from(binding, 'hex')).digest('base64url');
}
