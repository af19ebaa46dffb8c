import { sql } from 'kysely';
import type { DB } from '../db/database';
import { entryHash, GENESIS_HASH } from './chain';
import { loadHashedEntries } from './written';

export type VerifyResult = (
  | {
      ok: true;
      /** Entries checked (balances and, once sealed, the chain). */
      entries: number;
      accounts: number;
      /** Entries on the hash chain. */
      sealed: number;
      /** Committed entries the sealer has not chained yet (normally those of the last second). */
      unsealed: number;
      /** Booking time of the oldest unsealed entry, if any. */
      oldestUnsealedAt: string | null;
    }
  | { ok: false; entries: number; problem: string; entryId: string | null; seq: number | null }
) & {
  /** The chain recomputed from the entries, at the positions asked for (set by verifyLedger). */
  recomputed?: RecomputedChain;
};

const PAGE = 2000;

type Failure = Extract<VerifyResult, { ok: false }>;
const failure = (entries: number, problem: string, entryId: string | null = null, seq: number | null = null): Failure => ({
  ok: false,
  entries,
  problem,
  entryId,
  seq,
});

/**
 * The chain as recomputed from the entries (never from the stored hashes): its length and the
 * recomputed hash at each position asked for (the anchors' positions). `walkedTo`: the last
 * position that could be recomputed (a gap or a missing entry stops the walk).
 */
export interface RecomputedChain {
  length: number;
  walkedTo: number;
  hashesAt: Map<number, string>;
}

/**
 * Walks the hash chain from its first position: positions gapless, each hash recomputed from the
 * entry as stored. After the first problem it keeps recomputing (from the recomputed hashes) as far
 * as a wanted position needs, so anchors can still be compared with what the entries say.
 */
async function checkChain(db: DB, wanted: ReadonlySet<number>): Promise<{ failure: Failure | null; recomputed: RecomputedChain }> {
  const lastWanted = Math.max(0, ...wanted);
  const recomputed: RecomputedChain = { length: 0, walkedTo: 0, hashesAt: new Map() };
  let failed: Failure | null = null;
  let prevStored = GENESIS_HASH;
  let prevComputed = GENESIS_HASH;
  let expected = 1;
  const stop = (failure: Failure | null) => {
    recomputed.walkedTo = expected - 1;
    recomputed.length = Math.max(recomputed.length, expected - 1);
    return { failure: failed ?? failure, recomputed };
  };
  for (;;) {
    const links = await db
      .selectFrom('ledger_chain as c')
      .innerJoin('journal_entries as e', 'e.id', 'c.entry_id')
      .select(['c.position', 'c.entry_id', 'c.prev_hash', 'c.hash', 'e.seq'])
      .where('c.position', '>=', expected)
      .orderBy('c.position')
      .limit(PAGE)
      .execute();
    if (links.length === 0) return stop(null);
    const entries = await loadHashedEntries(
      db,
      links.map((link) => link.entry_id),
    );
    for (const link of links) {
      const position = Number(link.position);
      const at = (problem: string) => failure(expected - 1, `${problem} (chain position ${position})`, link.entry_id, link.seq);
      if (position !== expected) return stop(at(`chain gap: expected position ${expected}`));
      if (link.prev_hash !== prevStored) failed ??= at('prev_hash does not match the previous entry');
      const entry = entries.get(link.entry_id);
      if (!entry) return stop(at('the chained entry is missing'));
      const hash = entryHash(prevComputed, { ...entry, seq: position });
      if (hash !== link.hash) failed ??= at('hash does not match the entry and its postings');
      if (wanted.has(position)) recomputed.hashesAt.set(position, hash);
      prevStored = link.hash;
      prevComputed = hash;
      expected += 1;
      if (failed && expected > lastWanted) {
        // Nothing further is needed; the true length is still worth knowing.
        const last = await db.selectFrom('ledger_chain').select('position').orderBy('position', 'desc').limit(1).executeTakeFirst();
        recomputed.length = Number(last?.position ?? 0);
        return stop(null);
      }
    }
  }
}

/**
 * Walks every entry in the order it was applied: each entry's postings sum to zero, its amount is
 * what they move, and every posting's balance-after continues its account's running balance.
 */
async function checkEntries(db: DB, running: Map<string, number>): Promise<Failure | { entries: number }> {
  let checked = 0;
  let fromSeq = 0;
  for (;;) {
    const entries = await db.selectFrom('journal_entries').select(['id', 'seq', 'amount']).where('seq', '>', fromSeq).orderBy('seq').limit(PAGE).execute();
    if (entries.length === 0) break;
    const lastSeq = entries[entries.length - 1]?.seq ?? fromSeq;
    const postings = await db
      .selectFrom('postings')
      .select(['entry_id', 'entry_seq', 'account_id', 'amount', 'balance_after'])
      .where('entry_seq', '>', fromSeq)
      .where('entry_seq', '<=', lastSeq)
      .execute();
    const byEntry = new Map<string, typeof postings>();
    for (const posting of postings) {
      const list = byEntry.get(posting.entry_id) ?? [];
      list.push(posting);
      byEntry.set(posting.entry_id, list);
    }
    for (const entry of entries) {
      const at = (problem: string) => failure(checked, problem, entry.id, entry.seq);
      const lines = byEntry.get(entry.id) ?? [];
      if (lines.length < 2) return at('fewer than two postings');
      let sum = 0;
      let moved = 0;
      for (const line of lines) {
        if (line.entry_seq !== entry.seq) return at('posting carries the wrong sequence number');
        sum += line.amount;
        if (line.amount > 0) moved += line.amount;
        const next = (running.get(line.account_id) ?? 0) + line.amount;
        if (next !== line.balance_after) return at(`running balance of account ${line.account_id} is ${next}, posting says ${line.balance_after}`);
        running.set(line.account_id, next);
      }
      if (sum !== 0) return at(`postings sum to ${sum}, not 0`);
      if (moved !== entry.amount) return at(`amount ${entry.amount} differs from the postings (${moved})`);
      checked += 1;
    }
    fromSeq = lastSeq;
  }
  const stray = await sql<{ entry_id: string; entry_seq: number }>`
    select p.entry_id, p.entry_seq from postings p left join journal_entries e on e.id = p.entry_id and e.seq = p.entry_seq where e.id is null limit 1`.execute(
    db,
  );
  const orphan = stray.rows[0];
  if (orphan) return failure(checked, 'a posting belongs to no entry', orphan.entry_id, Number(orphan.entry_seq));
  return { entries: checked };
}

/**
 * Recomputes the whole ledger: the hash chain (every field of every sealed entry and posting),
 * that every committed entry is either chained or waiting for the sealer, each entry's balance,
 * every running balance and every stored balance. Reports the first thing that does not match.
 * Entries not sealed yet are counted apart: their content is checked by the balances, their place
 * in the chain once the sealer has run (docs/decisions/008-ledger-several-writers.md).
 */
export async function verifyLedger(db: DB, options: { positions?: Iterable<number> } = {}): Promise<VerifyResult> {
  // One snapshot: chain, entries, postings and balances as of one moment, even while the bank runs.
  if (!db.isTransaction)
    return db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => verifyLedger(trx, options));

  const { failure: broken, recomputed } = await checkChain(db, new Set(options.positions ?? []));
  if (broken) return { ...broken, recomputed };
  const result = await checkBalances(db, recomputed.length);
  return { ...result, recomputed };
}

/** Every entry and balance, once the chain has been walked (`sealed`: its length). */
async function checkBalances(db: DB, sealed: number): Promise<VerifyResult> {
  const running = new Map<string, number>();
  const walked = await checkEntries(db, running);
  if ('ok' in walked) return walked;

  const coverage = await sql<{ entries: string; unsealed: string; both: string | null; neither: string | null; oldest: Date | null }>`
    select (select count(*) from journal_entries) as entries,
      (select count(*) from ledger_unsealed) as unsealed,
      (select u.entry_id::text from ledger_unsealed u join ledger_chain c on c.entry_id = u.entry_id limit 1) as both,
      (select e.id::text from journal_entries e where not exists (select 1 from ledger_chain c where c.entry_id = e.id)
         and not exists (select 1 from ledger_unsealed u where u.entry_id = e.id) limit 1) as neither,
      (select min(booked_at) from ledger_unsealed) as oldest`.execute(db);
  const counts = coverage.rows[0];
  const unsealed = Number(counts?.unsealed ?? 0);
  if (counts?.both) return failure(walked.entries, 'an entry is both chained and waiting to be sealed', counts.both);
  if (counts?.neither) return failure(walked.entries, 'an entry is neither chained nor waiting to be sealed', counts.neither);
  if (Number(counts?.entries ?? 0) !== sealed + unsealed)
    return failure(walked.entries, `${counts?.entries} entries, but ${sealed} chained and ${unsealed} waiting`);

  const accounts = await db.selectFrom('ledger_accounts').select(['id', 'balance', 'allow_negative', 'name', 'number']).execute();
  let total = 0;
  for (const account of accounts) {
    const expected = running.get(account.id) ?? 0;
    total += account.balance;
    if (account.balance !== expected) {
      return failure(
        walked.entries,
        `stored balance of account ${account.number ?? account.name} (${account.id}) is ${account.balance}, postings sum to ${expected}`,
      );
    }
    if (!account.allow_negative && account.balance < 0) return failure(walked.entries, `account ${account.id} is negative`);
  }
  if (total !== 0) return failure(walked.entries, `balances over all accounts sum to ${total}, not 0`);
  return {
    ok: true,
    entries: walked.entries,
    accounts: accounts.length,
    sealed,
    unsealed,
    oldestUnsealedAt: counts?.oldest ? new Date(counts.oldest).toISOString() : null,
  };
}

export function describeVerifyResult(result: VerifyResult): string {
  if (!result.ok) {
    const where = result.entryId ? `entry ${result.entryId} (seq ${result.seq})` : 'balances';
    return `FAILED at ${where}: ${result.problem}`;
  }
  const tail = result.unsealed > 0 ? `; ${result.unsealed} newest not sealed yet (oldest booked ${result.oldestUnsealedAt})` : '';
  return `OK: ${result.entries} entries, ${result.accounts} accounts; every balance matches, ${result.sealed} entries on the hash chain${tail}.`;
}
