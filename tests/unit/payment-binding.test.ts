import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type PaymentSubject, paymentBinding } from '../../src/server/payment-approval/binding';

// The binding is stored with a pending approval and computed again when the code or passkey comes
// back: its encoding must not change under an approval in flight. This is the encoding as first
// written (its own canonical JSON: a rebuilt object with sorted keys, through JSON.stringify).
function firstBinding(subject: PaymentSubject): string {
  const canonical = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : canonical(item)));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = canonical(item);
    }
    return out;
  };
  const encoded = JSON.stringify(
    canonical({
      v: 'ledgerline-payment-approval/1',
      kind: subject.kind,
      from: subject.fromAccountId,
      amountCents: subject.amountCents,
      currency: subject.currency ?? 'USD',
      payee: subject.payee,
      description: subject.description,
      terms: subject.terms ?? {},
    }),
  );
  return createHash('sha256').update(encoded, 'utf8').digest('hex');
}

const from = '01a212e8-d591-73c2-9654-fb45abefcd38';
const subjects: PaymentSubject[] = [
  { kind: 'transfer', fromAccountId: from, amountCents: 12_34, payee: { accountNumber: '7654462725', name: 'Jamie Lee', internal: true }, description: 'Rent' },
  {
    kind: 'wire',
    fromAccountId: from,
    amountCents: 250_000,
    payee: { name: 'Ümit Çelik', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', address: { city: 'Berlin', line: 'Straße 1' } },
    description: null,
  },
  { kind: 'payment_request', fromAccountId: from, amountCents: 5_00, payee: { accountNumber: '7654462725' }, description: 'Lunch', terms: { requestId: from } },
  {
    kind: 'standing_order',
    fromAccountId: from,
    amountCents: 100_00,
    payee: { kind: 'payee', payeeId: from },
    description: 'Savings "pot"',
    terms: { frequency: 'monthly', startDate: '2026-12-31', endDate: undefined, count: 12 },
  },
  { kind: 'bulk', fromAccountId: from, amountCents: 4_50, payee: { rows: 'a'.repeat(64) }, description: null, terms: { count: 3 } },
];

describe('payment binding', () => {
  it('encodes every kind of payment exactly as it was first encoded (approvals in flight keep their binding)', () => {
    for (const subject of subjects) expect(paymentBinding(subject)).toBe(firstBinding(subject));
  });

  it('changes with the amount, the payee and the terms, and refuses what is not JSON', () => {
    const [transfer, , , order] = subjects as [PaymentSubject, PaymentSubject, PaymentSubject, PaymentSubject];
    expect(paymentBinding({ ...transfer, amountCents: 12_35 })).not.toBe(paymentBinding(transfer));
    expect(paymentBinding({ ...transfer, payee: { ...transfer.payee, accountNumber: '7654462726' } })).not.toBe(paymentBinding(transfer));
    expect(paymentBinding({ ...order, terms: { ...order.terms, count: 13 } })).not.toBe(paymentBinding(order));
    expect(() => paymentBinding({ ...order, terms: { count: Number.NaN } })).toThrow();
    expect(() => paymentBinding({ ...transfer, payee: { name: () => 'x' } })).toThrow();
  });
});
