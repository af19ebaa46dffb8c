import { type Selectable, sql } from 'kysely';
import type { DB } from '../db/database';
import type { JournalEntriesTable, PostingsTable } from '../db/schema';
import type { HashedEntry } from './chain';
import type { PostedEntry } from './posting';
import { isCanonicalUuid } from './uuid';

// The ledger's entries as stored, for the readers that follow every entry: from memory when this
// process wrote them, else read.
//
// What this process has just written to the ledger, in the form a read of it after the commit
// gives (the same values, as PostgreSQL stores and returns them), by entry id. The readers that
// follow every entry, the sealer (which hashes it, ledger/sealer.ts) and the money notifier
// (notifications/ledger-notifier.ts), take it from here instead of reading it back (ADR 021,
// "Speed, sealing from what was written"). A reader that does not find an entry reads it. An entry
// whose transaction rolled back is never asked for (only committed, chained entries are) and
// leaves with the oldest, as do entries another process seals and notifies.

/** A written entry: what its hash covers, and each posting's id (the notifier's order). */
export interface WrittenEntry extends Omit<HashedEntry, 'seq' | 'postings'> {
  postings: Array<HashedEntry['postings'][number] & { id: string }>;
}

const written = new Map<string, WrittenEntry>();
/** About two seconds of bulk payments at their fastest; past it the oldest go (a miss only costs a read). */
const WRITTEN_MAX = 20_000;
const ISO_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const storedAsGiven = (text: string | null) => text === null || (text as unknown as { isWellFormed(): boolean }).isWellFormed();
const canonicalId = (id: string | null) => id === null || isCanonicalUuid(id);

/** Who in this process reads what it writes, the last of them letting each entry go. */
export type WrittenReaders = 'none' | 'sealer' | 'sealer and notifier';
let readers: WrittenReaders = 'sealer and notifier';

/**
 * The entry as a read of it after its commit answers, or null when that is not certain without the
 * read: an id not in PostgreSQL's own spelling of a uuid (it lowercases), a date it would respell,
 * or text with a lone surrogate (sent as U+FFFD). The details go through JSON as jsonb does.
 */
export function storedForm(entry: PostedEntry): WrittenEntry | null {
  const exact =
    canonicalId(entry.id) &&
    canonicalId(entry.authorId) &&
    canonicalId(entry.reversalOf) &&
    ISO_DATE.test(entry.valueDate) &&
    storedAsGiven(entry.kind) &&
    storedAsGiven(entry.description) &&
    entry.postings.every(
      (posting) => canonicalId(posting.id) && canonicalId(posting.accountId) && storedAsGiven(posting.memo) && storedAsGiven(posting.counterparty),
    );
  if (!exact) return null;
  return {
    id: entry.id,
    kind: entry.kind,
    description: entry.description,
    valueDate: entry.valueDate,
    bookedAt: entry.bookedAt,
    authorId: entry.authorId,
    amountCents: entry.amountCents,
    reversalOf: entry.reversalOf,
    details: entry.details === null ? null : (JSON.parse(JSON.stringify(entry.details)) as Record<string, unknown>),
    postings: entry.postings.map((posting) => ({
      id: posting.id,
      accountId: posting.accountId,
      amountCents: posting.amountCents,
      balanceAfterCents: posting.balanceAfterCents,
      memo: posting.memo,
      counterparty: posting.counterparty,
    })),
  };
}

/**
 * Set once at start (server.ts, the worker command): 'none' in a process that never seals (a
 * cluster's worker, the worker command), which would otherwise hold 20,000 entries nobody reads;
 * 'sealer' where background jobs run elsewhere (RUN_JOBS=false).
 */
export function readWrittenBy(who: WrittenReaders): void {
  readers = who;
  if (who === 'none') written.clear();
}

/** Holds these stored entries for the readers to come, the oldest going past WRITTEN_MAX. */
function hold(entries: Iterable<WrittenEntry>): void {
  for (const entry of entries) written.set(entry.id, entry);
  if (written.size > WRITTEN_MAX) {
    let excess = written.size - WRITTEN_MAX;
    for (const id of written.keys()) {
      if (excess-- <= 0) break;
      written.delete(id);
    }
  }
}

/** Called by the posting function as it sends the statement that writes these entries (committed or not, see above). */
export function rememberWritten(entries: PostedEntry[]): void {
  if (readers === 'none') return;
  hold(entries.map(storedForm).filter((entry): entry is WrittenEntry => entry !== null));
}

/** An entry this process wrote and still holds. */
export function writtenEntry(id: string): WrittenEntry | undefined {
  return written.get(id);
}

/** A reader is done with these entries (committed what it read): the last one lets them go. */
export function doneWithWritten(ids: string[], reader: 'sealer' | 'notifier'): void {
  if (reader === 'sealer' && readers === 'sealer and notifier') return;
  for (const id of ids) written.delete(id);
}

type JournalEntryRow = Selectable<JournalEntriesTable>;
type PostingRow = Pick<Selectable<PostingsTable>, 'id' | 'entry_id' | 'account_id' | 'amount' | 'balance_after' | 'memo' | 'counterparty'>;

/** Entries and their postings as stored (what a hash covers, and each posting's id), read. */
export async function loadHashedEntries(db: DB, entryIds: string[]): Promise<Map<string, WrittenEntry>> {
  if (entryIds.length === 0) return new Map();
  // The ids as one array parameter (a list of 2,000 parameters was parsed and planned for each
  // count), each looked up by its key on its own: with `= any(ids)` a planner whose statistics lag a
  // fast-growing ledger (a fresh bank's first minutes, a restore) read the whole table for a few
  // hundred ids, 15 ms a batch at 100,000 postings (ADR 008). `offset 0` keeps each lookup apart.
  const [entries, postings] = await Promise.all([
    sql<JournalEntryRow>`
      select entry.* from unnest(${entryIds}::uuid[]) as wanted(id)
      cross join lateral (select * from journal_entries where journal_entries.id = wanted.id offset 0) as entry`.execute(db),
    sql<PostingRow>`
      select line.* from unnest(${entryIds}::uuid[]) as wanted(id)
      cross join lateral (
        select id, entry_id, account_id, amount, balance_after, memo, counterparty from postings where postings.entry_id = wanted.id offset 0
      ) as line`.execute(db),
  ]);
  const linesOf = new Map<string, WrittenEntry['postings']>();
  for (const line of postings.rows) {
    const lines = linesOf.get(line.entry_id) ?? [];
    lines.push({
      id: line.id,
      accountId: line.account_id,
      amountCents: line.amount,
      balanceAfterCents: line.balance_after,
      memo: line.memo,
      counterparty: line.counterparty,
    });
    linesOf.set(line.entry_id, lines);
  }
  return new Map(
    entries.rows.map((entry) => [
      entry.id,
      {
        id: entry.id,
        kind: entry.kind,
        description: entry.description,
        valueDate: entry.value_date,
        bookedAt: new Date(entry.booked_at),
        authorId: entry.author_id,
        amountCents: entry.amount,
        reversalOf: entry.reversal_of,
        details: (entry.details as Record<string, unknown> | null) ?? null,
        postings: linesOf.get(entry.id) ?? [],
      },
    ]),
  );
}

/**
 * These entries as stored: those this process wrote and still holds from memory, the rest read
 * (entries another process wrote, or this one let go). The sealer and the money notifier both;
 * what the sealer had to read is held for the notifier, which reads the same entries next (a
 * cluster's primary seals and notifies everything its workers write: one read, not two).
 */
export async function storedEntries(db: DB, entryIds: string[], reader: 'sealer' | 'notifier'): Promise<Map<string, WrittenEntry>> {
  const found = new Map<string, WrittenEntry>();
  const unknown: string[] = [];
  for (const id of entryIds) {
    const entry = written.get(id);
    if (entry) found.set(id, entry);
    else unknown.push(id);
  }
  const read = await loadHashedEntries(db, unknown);
  for (const [id, entry] of read) found.set(id, entry);
  if (reader === 'sealer' && readers === 'sealer and notifier') hold(read.values());
  return found;
}
