import { createHash, randomBytes } from 'node:crypto';
import type { PaymentApprovalKind } from '../db/schema';
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

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A canonical JSON text: object keys sorted (by code unit), no whitespace, undefined members left
 * out, only finite numbers. Two equal subjects always encode to the same bytes, whatever order
 * their fields were written in.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    assert(Number.isFinite(value), 'a canonical number is finite');
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : canonical(item)));
  assert(typeof value === 'object', `a canonical value is JSON (got ${typeof value})`);
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = canonical(item);
  }
  return out;
}

/** The version of the encoding: bumped if the subject's shape ever changes meaning. */
const ENCODING = 'ledgerline-payment-approval/1';

/** The payment's binding: SHA-256 (hex) over the canonical encoding of exactly this payment. */
export function paymentBinding(subject: PaymentSubject): string {
  assert(Number.isSafeInteger(subject.amountCents) && subject.amountCents > 0, 'an approved amount is a positive number of cents');
  const encoded = canonicalJson({
    v: ENCODING,
    kind: subject.kind,
    from: subject.fromAccountId,
    amountCents: subject.amountCents,
    currency: subject.currency ?? 'USD',
    payee: subject.payee,
    description: subject.description,
    terms: subject.terms ?? {},
  });
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
