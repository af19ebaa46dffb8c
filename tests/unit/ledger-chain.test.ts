import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, entryHash, GENESIS_HASH, type HashedEntry } from '../../src/server/ledger/chain';
import { uuidv7 } from '../../src/server/ledger/uuid';
import { isValidBic, isValidIban, isValidRoutingNumber } from '../../src/shared/wire';

const entry: HashedEntry = {
  id: '0190f0e2-0000-7000-8000-000000000001',
  seq: 1,
  kind: 'transfer',
  description: 'Rent',
  valueDate: '2026-11-21',
  bookedAt: new Date('2026-11-21T08:00:00.000Z'),
  authorId: null,
  amountCents: 1000,
  reversalOf: null,
  details: { b: 1, a: [1, 2] },
  postings: [
    { accountId: 'a', amountCents: -1000, balanceAfterCents: 0, memo: null, counterparty: null },
    { accountId: 'b', amountCents: 1000, balanceAfterCents: 1000, memo: 'x', counterparty: 'y' },
  ],
};

describe('hash chain', () => {
  it('does not depend on key order or posting order', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe(canonicalJson({ a: { c: 3, d: 2 }, b: 1 }));
    expect(entryHash(GENESIS_HASH, entry)).toBe(entryHash(GENESIS_HASH, { ...entry, postings: [...entry.postings].reverse(), details: { a: [1, 2], b: 1 } }));
  });

  it('changes when any field, posting or the predecessor changes', () => {
    const original = entryHash(GENESIS_HASH, entry);
    const variants: HashedEntry[] = [
      { ...entry, seq: 2 },
      { ...entry, kind: 'wire' },
      { ...entry, description: 'Rent.' },
      { ...entry, valueDate: '2026-11-20' },
      { ...entry, bookedAt: new Date('2026-11-21T08:00:00.001Z') },
      { ...entry, authorId: 'someone' },
      { ...entry, amountCents: 1001 },
      { ...entry, reversalOf: 'x' },
      { ...entry, details: null },
      { ...entry, postings: [{ ...entry.postings[0]!, amountCents: -1001 }, entry.postings[1]!] },
      { ...entry, postings: [entry.postings[0]!, { ...entry.postings[1]!, balanceAfterCents: 999 }] },
      { ...entry, postings: [entry.postings[0]!, { ...entry.postings[1]!, memo: 'z' }] },
      { ...entry, postings: [entry.postings[0]!, { ...entry.postings[1]!, accountId: 'c' }] },
    ];
    for (const variant of variants) expect(entryHash(GENESIS_HASH, variant)).not.toBe(original);
    expect(entryHash('1'.repeat(64), entry)).not.toBe(original);
  });

  it('hashes exactly the canonical JSON of the entry, whatever its content', () => {
    // The format as first written: chains sealed with it must verify with today's serializers.
    const referenceJson = (value: unknown): string => {
      if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
      if (Array.isArray(value)) return `[${value.map(referenceJson).join(',')}]`;
      const record = value as Record<string, unknown>;
      return `{${Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${referenceJson(record[key])}`)
        .join(',')}}`;
    };
    const reference = (prevHash: string, hashed: HashedEntry) => {
      const postings = [...hashed.postings]
        .sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0))
        .map((posting) => [posting.accountId, posting.amountCents, posting.balanceAfterCents, posting.memo, posting.counterparty]);
      const body = referenceJson({
        prev: prevHash,
        id: hashed.id,
        seq: hashed.seq,
        kind: hashed.kind,
        description: hashed.description,
        valueDate: hashed.valueDate,
        bookedAt: hashed.bookedAt.toISOString(),
        authorId: hashed.authorId,
        amount: hashed.amountCents,
        reversalOf: hashed.reversalOf,
        details: hashed.details,
        postings,
      });
      return createHash('sha256').update(body).digest('hex');
    };
    const text = fc.string({ unit: 'binary' });
    const cents = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
    const posting = fc.record({ accountId: text, amountCents: cents, balanceAfterCents: cents, memo: fc.option(text), counterparty: fc.option(text) });
    const arbitraryEntry = fc.record({
      id: text,
      seq: fc.nat(),
      kind: text,
      description: text,
      valueDate: text,
      bookedAt: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
      authorId: fc.option(text),
      amountCents: cents,
      reversalOf: fc.option(text),
      details: fc.option(fc.dictionary(text, fc.jsonValue())),
      postings: fc.array(posting, { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{64}$/), arbitraryEntry, (prevHash, hashed) => {
        expect(entryHash(prevHash, hashed)).toBe(reference(prevHash, hashed));
      }),
      { numRuns: 2000 },
    );
    expect(entryHash(GENESIS_HASH, entry)).toBe(reference(GENESIS_HASH, entry));
    // Details, request bodies and audit records: any JSON, with members left undefined.
    const withUndefined = fc
      .jsonValue()
      .map((value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value, gone: undefined } : value));
    fc.assert(
      fc.property(withUndefined, (value) => {
        expect(canonicalJson(value)).toBe(referenceJson(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('UUIDv7 ids are valid and sort in creation order', () => {
    const ids = Array.from({ length: 2000 }, () => uuidv7());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('wire checks', () => {
  it('validates SWIFT/BIC, IBAN and ABA routing numbers', () => {
    expect(isValidBic('COBADEFFXXX')).toBe(true);
    expect(isValidBic('CHASUS33')).toBe(true);
    expect(isValidBic('CHASZZ33')).toBe(false);
    expect(isValidBic('CHAS US33')).toBe(false);
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('DE88370400440532013000')).toBe(false);
    expect(isValidRoutingNumber('021000021')).toBe(true);
    expect(isValidRoutingNumber('021000022')).toBe(false);
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), (digits) => {
        // Changing one digit of a valid routing number always breaks the checksum.
        if (!isValidRoutingNumber(digits)) return;
        const changed = digits.slice(0, 4) + String((Number(digits[4]) + 1) % 10) + digits.slice(5);
        expect(isValidRoutingNumber(changed)).toBe(false);
      }),
    );
  });
});
