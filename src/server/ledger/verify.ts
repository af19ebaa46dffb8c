import type { DB } from '../db/database';
import { entryHash, GENESIS_HASH } from './chain';

export type VerifyResult =
  { ok: true; entries: number; accounts: number } | { ok: false; entries: number; problem: string; entryId: string | null; seq: number | null };

const PAGE = 2000;

/**
 * Recomputes the whole ledger from its postings: the hash chain (every field of every entry and
 * posting), each entry's balance, every running balance and every stored balance. Reports the
 * first entry that does not match.
 */
export async function verifyLedger(db: DB): Promise<VerifyResult> {
  // One snapshot: entries, postings and balances as of one moment, even while the bank runs.
  if (!db.isTransaction)
    return db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => verifyLedger(trx));
  const running = new Map<string, number>();
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  const fail = (problem: string, entryId: string | null, seq: number | null): VerifyResult => ({ ok: false, entries: checked, problem, entryId, seq });

  for (;;) {
    const entries = await db.selectFrom('journal_entries').selectAll().where('seq', '>=', expectedSeq).orderBy('seq').limit(PAGE).execute();
    if (entries.length === 0) break;
    const lastSeq = entries[entries.length - 1]?.seq ?? expectedSeq;
    const postings = await db.selectFrom('postings').selectAll().where('entry_seq', '>=', expectedSeq).where('entry_seq', '<=', lastSeq).execute();
    const byEntry = new Map<string, typeof postings>();
    for (const posting of postings) {
      const list = byEntry.get(posting.entry_id) ?? [];
      list.push(posting);
      byEntry.set(posting.entry_id, list);
    }
    for (const entry of entries) {
      if (entry.seq !== expectedSeq) return fail(`sequence gap: expected ${expectedSeq}, found ${entry.seq}`, entry.id, entry.seq);
      if (entry.prev_hash !== prevHash) return fail('prev_hash does not match the previous entry', entry.id, entry.seq);
      const lines = byEntry.get(entry.id) ?? [];
      const hash = entryHash(prevHash, {
        id: entry.id,
        seq: entry.seq,
        kind: entry.kind,
        description: entry.description,
        valueDate: entry.value_date,
        bookedAt: new Date(entry.booked_at),
        authorId: entry.author_id,
        amountCents: entry.amount,
        reversalOf: entry.reversal_of,
        details: (entry.details as Record<string, unknown> | null) ?? null,
        postings: lines.map((line) => ({
          accountId: line.account_id,
          amountCents: line.amount,
          balanceAfterCents: line.balance_after,
          memo: line.memo,
          counterparty: line.counterparty,
        })),
      });
      if (hash !== entry.hash) return fail('hash does not match the entry and its postings', entry.id, entry.seq);
      if (lines.length < 2) return fail('fewer than two postings', entry.id, entry.seq);
      let sum = 0;
      let moved = 0;
      for (const line of lines) {
        if (line.entry_seq !== entry.seq) return fail('posting carries the wrong sequence number', entry.id, entry.seq);
        sum += line.amount;
        if (line.amount > 0) moved += line.amount;
        const next = (running.get(line.account_id) ?? 0) + line.amount;
        if (next !== line.balance_after)
          return fail(`running balance of account ${line.account_id} is ${next}, posting says ${line.balance_after}`, entry.id, entry.seq);
        running.set(line.account_id, next);
      }
      if (sum !== 0) return fail(`postings sum to ${sum}, not 0`, entry.id, entry.seq);
      if (moved !== entry.amount) return fail(`amount ${entry.amount} differs from the postings (${moved})`, entry.id, entry.seq);
      prevHash = entry.hash;
      expectedSeq += 1;
      checked += 1;
    }
  }

  const stray = await db.selectFrom('postings').select(['entry_id', 'entry_seq']).where('entry_seq', '>=', expectedSeq).executeTakeFirst();
  if (stray) return fail('a posting belongs to no entry of the chain', stray.entry_id, stray.entry_seq);
  const head = await db.selectFrom('ledger_chain_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirst();
  if (!head || Number(head.seq) !== expectedSeq - 1 || head.hash !== prevHash)
    return fail('the chain head does not match the last entry', null, expectedSeq - 1);

  const accounts = await db.selectFrom('ledger_accounts').select(['id', 'balance', 'allow_negative', 'name', 'number']).execute();
  let total = 0;
  for (const account of accounts) {
    const expected = running.get(account.id) ?? 0;
    total += account.balance;
    if (account.balance !== expected) {
      return fail(`stored balance of account ${account.number ?? account.name} (${account.id}) is ${account.balance}, postings sum to ${expected}`, null, null);
    }
    if (!account.allow_negative && account.balance < 0) return fail(`account ${account.id} is negative`, null, null);
  }
  if (total !== 0) return fail(`balances over all accounts sum to ${total}, not 0`, null, null);
  return { ok: true, entries: checked, accounts: accounts.length };
}

export function describeVerifyResult(result: VerifyResult): string {
  if (result.ok) return `OK: ${result.entries} entries, ${result.accounts} accounts; hash chain and every balance match.`;
  const where = result.entryId ? `entry ${result.entryId} (seq ${result.seq})` : 'balances';
  return `FAILED at ${where}: ${result.problem}`;
}
