import type { CustomerAccountKind } from '../../shared/contracts/transactions';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { inTransaction } from '../db/transaction';
import { assert } from '../lib/errors';
import { doneWithWritten, storedEntries } from '../ledger/written';
import { addJob } from '../queues/repository';
import type { NotifyInput } from './messages';
import * as repository from './repository';
import { lookupRecipients, notifyMany } from './service';

// The money notifications (money received, money sent above an amount, balance below an amount)
// come from the ledger after the fact, not from the writer's hot path (ADR 013): a job reads the
// entries the sealer has chained since its cursor and notifies each customer they touch.

/** The job that reads the chain (registered in jobs/registry.ts). */
export const LEDGER_NOTIFY_TASK = 'notify_ledger';
/** At most one such job waits at a time: wakes while one waits are one run. */
const LEDGER_NOTIFY_JOB_KEY = 'notify_ledger';
/**
 * Its runs, woken or scheduled, form one queue and run one after another across every process: two
 * at once would only wait on the cursor's lock, each holding a worker slot that mail (a payment's
 * IMS code) is waiting for.
 */
export const LEDGER_NOTIFY_QUEUE = 'notify_ledger';
const CURSOR = 'ledger';
/** Entries read and notified per transaction (a bulk payment of 1,000 is two). */
export const LEDGER_NOTIFY_BATCH_MAX = 500;

/** The counterparty the bank's own adjustments carry, as a customer would say it. */
const BANK_COUNTERPARTY = 'Bank adjustment';

const isCustomerAccount = (kind: string): kind is CustomerAccountKind => kind === 'savings' || kind === 'checking';

/**
 * What a received line says beyond its sender: a transfer's memo repeats the sender's name
 * ("Transfer from Alex Morgan: Rent"), which the notification already gives.
 */
function receivedDescription(text: string, from: string | null): string | null {
  const prefix = from ? `Transfer from ${from}` : null;
  if (prefix && text === prefix) return null;
  if (prefix && text.startsWith(`${prefix}: `)) return text.slice(prefix.length + 2);
  return text;
}

/** The notifications one chained entry may cause; notify() then applies each customer's preferences. */
export function eventsOf(postings: repository.ChainedPosting[]): NotifyInput[] {
  const events: NotifyInput[] = [];
  const byOwner = new Map<string, repository.ChainedPosting[]>();
  for (const posting of postings) {
    if (!posting.owner_id || !isCustomerAccount(posting.account_kind)) continue;
    byOwner.set(posting.owner_id, [...(byOwner.get(posting.owner_id) ?? []), posting]);
  }
  for (const [userId, lines] of byOwner) {
    // Money moved between the customer's own accounts was neither received nor sent.
    const ownTransfer = lines.some((line) => line.amount < 0) && lines.some((line) => line.amount > 0);
    for (const line of lines) {
      const account = line.account_kind as CustomerAccountKind;
      const key = `entry:${line.entry_id}:${account}`;
      const counterparty = line.counterparty === BANK_COUNTERPARTY ? 'the bank' : line.counterparty;
      if (line.amount > 0 && !ownTransfer && line.entry_kind !== 'opening') {
        events.push({
          kind: 'money_received',
          userId,
          key,
          amountCents: line.amount,
          account,
          from: counterparty,
          description: receivedDescription(line.memo ?? line.entry_description, line.counterparty),
        });
      }
      if (line.amount < 0) {
        if (!ownTransfer) events.push({ kind: 'money_sent_above', userId, key, amountCents: -line.amount, account, to: counterparty });
        events.push({
          kind: 'balance_below',
          userId,
          key,
          account,
          balanceBeforeCents: line.balance_after - line.amount,
          balanceAfterCents: line.balance_after,
        });
      }
    }
  }
  return events;
}

function groupByEntry(rows: repository.ChainedPosting[]): repository.ChainedPosting[][] {
  const entries: repository.ChainedPosting[][] = [];
  let current: repository.ChainedPosting[] = [];
  for (const row of rows) {
    if (current.length > 0 && current[0]?.entry_id !== row.entry_id) {
      entries.push(current);
      current = [];
    }
    current.push(row);
  }
  if (current.length > 0) entries.push(current);
  return entries;
}

/**
 * The postings of the entries chained at positions (after, after + count], in chain order and each
 * entry's in posting (id) order: from what this process wrote while it still holds them
 * (ledger/written.ts) or the sealer read just before, the rest read.
 */
export async function chainedSince(db: DB, after: number, count: number): Promise<repository.ChainedPosting[]> {
  const links = await repository.chainLinks(db, after, count);
  if (links.length === 0) return [];
  const entries = await storedEntries(
    db,
    links.map((link) => link.entry_id),
    'notifier',
  );
  const accounts = await repository.accountKinds(db, [
    ...new Set([...entries.values()].flatMap((entry) => entry.postings.map((posting) => posting.accountId))),
  ]);
  return links.flatMap((link) => {
    const entry = entries.get(link.entry_id);
    assert(entry, 'a chained entry exists');
    return [...entry.postings]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((posting) => {
        const account = accounts.get(posting.accountId);
        assert(account, 'a posted account exists');
        return {
          position: link.position,
          entry_id: entry.id,
          entry_kind: entry.kind,
          entry_description: entry.description,
          account_id: posting.accountId,
          account_kind: account.kind,
          owner_id: account.owner_id,
          amount: posting.amountCents,
          balance_after: posting.balanceAfterCents,
          memo: posting.memo,
          counterparty: posting.counterparty,
        };
      });
  });
}

/**
 * The notify_ledger job: notifies every entry chained after the cursor, in chain order, a batch per
 * transaction that also moves the cursor. The cursor row is locked for the batch, so two runs at
 * once take turns and the second finds nothing left; a run that fails rolls back its batch and the
 * retry notifies it again, where notify()'s key per entry, account and kind keeps it to one
 * notification and one mail. Answers how many entries it read.
 */
export async function notifyLedgerEntries(ctx: Pick<AppContext, 'db' | 'clock' | 'config'>, batchMax = LEDGER_NOTIFY_BATCH_MAX): Promise<number> {
  let total = 0;
  for (;;) {
    const { read, entryIds } = await inTransaction(ctx.db, async (trx) => {
      const after = await repository.lockCursor(trx, CURSOR);
      const rows = await chainedSince(trx, after, batchMax);
      const last = rows[rows.length - 1];
      if (!last) return { read: 0, entryIds: [] };
      const events = groupByEntry(rows).flatMap(eventsOf);
      // Most events are not notified (a payment below the customer's amount): their recipients
      // and choices are read once for the batch, not twice per event.
      const lookup = await lookupRecipients(trx, [...new Set(events.map((event) => event.userId))]);
      await notifyMany({ ...ctx, db: trx }, events, lookup);
      await repository.moveCursor(trx, CURSOR, last.position, ctx.clock.now());
      return { read: last.position - after, entryIds: [...new Set(rows.map((row) => row.entry_id))] };
    });
    // Notified and committed: nothing reads these entries after this job.
    doneWithWritten(entryIds, 'notifier');
    total += read;
    if (read < batchMax) return total;
  }
}

/**
 * Asks for a notify_ledger run soon (the sealer calls it after chaining entries). One job waits at
 * a time; a wake while one runs queues the next, so nothing chained is left waiting for the
 * minutely safety run.
 */
export async function wakeLedgerNotifier(ctx: Pick<AppContext, 'db'>): Promise<void> {
  await addJob(ctx.db, LEDGER_NOTIFY_TASK, {}, { jobKey: LEDGER_NOTIFY_JOB_KEY, queueName: LEDGER_NOTIFY_QUEUE });
}
