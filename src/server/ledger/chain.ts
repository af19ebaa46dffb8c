import { createHash } from 'node:crypto';

export const GENESIS_HASH = '0'.repeat(64);

/** JSON with sorted keys, so jsonb's reordering never changes a hash. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    .join(',')}}`;
}

export interface HashedEntry {
  id: string;
  seq: number;
  kind: string;
  description: string;
  valueDate: string;
  bookedAt: Date;
  authorId: string | null;
  amountCents: number;
  reversalOf: string | null;
  details: Record<string, unknown> | null;
  postings: Array<{ accountId: string; amountCents: number; balanceAfterCents: number; memo: string | null; counterparty: string | null }>;
}

/** The entry's hash covers its predecessor's hash, every field, and every posting (sorted by account). */
export function entryHash(prevHash: string, entry: HashedEntry): string {
  const postings = [...entry.postings]
    .sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0))
    .map((posting) => [posting.accountId, posting.amountCents, posting.balanceAfterCents, posting.memo, posting.counterparty]);
  const body = canonicalJson({
    prev: prevHash,
    id: entry.id,
    seq: entry.seq,
    kind: entry.kind,
    description: entry.description,
    valueDate: entry.valueDate,
    bookedAt: entry.bookedAt.toISOString(),
    authorId: entry.authorId,
    amount: entry.amountCents,
    reversalOf: entry.reversalOf,
    details: entry.details,
    postings,
  });
  return createHash('sha256').update(body).digest('hex');
}
