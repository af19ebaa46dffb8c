import { findApproval } from '../approvals/repository';
import { toApprovalDto } from '../approvals/service';
import type { z } from 'zod';
import type { JournalEntryDetailDto, JournalEntryDto, JournalPage, JournalPostingDto, LedgerAccountDto, ZJournalQuery } from '../../shared/contracts/journal';
import type { AppContext } from '../context';
import type { DB } from '../db/database';
import { assert, notFound } from '../lib/errors';
import { customerKey } from '../customers/service';
import * as repository from './repository';

// The whole journal (issue 15): every entry on every account, filtered and paged by key; one entry
// with everything it touched, its place on the hash chain, its reversal and its audit records.

type JournalQuery = z.output<typeof ZJournalQuery>;

export const ENTRY_NOT_FOUND = 'Entry not found';
const name = (row: { first_name: string | null; last_name: string | null }) =>
  row.first_name === null ? null : `${row.first_name} ${row.last_name ?? ''}`.trim();

function toAccount(row: repository.AccountRow): LedgerAccountDto {
  return { id: row.id, kind: row.kind, name: row.name, number: row.number, ownerId: row.owner_id, ownerName: name(row), balanceCents: row.balance };
}

function toPosting(row: repository.PostingRow): JournalPostingDto {
  return {
    accountId: row.account_id,
    accountKind: row.account_kind,
    accountName: row.account_name,
    accountNumber: row.number,
    ownerId: row.owner_id,
    ownerName: name(row),
    amountCents: row.amount,
    balanceAfterCents: row.balance_after,
    memo: row.memo,
    counterparty: row.counterparty,
  };
}

/**
 * Entries as the journal shows them: with their postings, author, reversal and corrected
 * description (one round trip; a second, at the same time, only when staff wrote some of them).
 */
async function toEntries(db: DB, rows: repository.EntryRow[]): Promise<JournalEntryDto[]> {
  const [details, emails] = await Promise.all([
    repository.entryDetails(
      db,
      rows.map((row) => row.id),
    ),
    repository.emailsOf(db, [...new Set(rows.flatMap((row) => (row.author_id ? [row.author_id] : [])))]),
  ]);
  return rows.map((row) => {
    const found = details.get(row.id);
    const lines = (found?.postings ?? []).map(toPosting);
    // Double entry, checked again where it is read: the lines sum to zero and move the entry's amount.
    assert(lines.length >= 2 && lines.reduce((sum, line) => sum + line.amountCents, 0) === 0, 'an entry read back is balanced');
    return {
      id: row.id,
      seq: row.seq,
      kind: row.kind,
      description: found?.note ?? row.description,
      bookedAt: new Date(row.booked_at).toISOString(),
      valueDate: row.value_date,
      amountCents: row.amount,
      authorId: row.author_id,
      authorEmail: row.author_id ? (emails.get(row.author_id) ?? null) : null,
      reversalOf: row.reversal_of,
      reversedBy: found?.reversed_by ?? null,
      postings: lines,
    };
  });
}

const EMPTY_PAGE = (pageSize: number): JournalPage => ({ items: [], olderCursor: null, newerCursor: null, pageSize });

/** GET /admin/journal: one page of entries, newest first, with the cursors to the pages beside it. */
export async function listJournal(ctx: AppContext, query: JournalQuery): Promise<JournalPage> {
  let customerAccountIds: string[] | undefined;
  if (query.customer) {
    customerAccountIds = await repository.customerAccountIds(ctx.db, customerKey(query.customer));
    if (customerAccountIds.length === 0) return { ...EMPTY_PAGE(query.pageSize), customerFound: false };
  }
  const filter: repository.JournalFilter = {
    kind: query.kind,
    customerAccountIds,
    accountId: query.account,
    bookedFrom: query.bookedFrom ? new Date(query.bookedFrom) : undefined,
    bookedTo: query.bookedTo ? new Date(query.bookedTo) : undefined,
    valueFrom: query.valueFrom,
    valueTo: query.valueTo,
    amountMinCents: query.amountMin,
    amountMaxCents: query.amountMax,
  };
  const direction: repository.PageDirection =
    query.older !== undefined ? { older: query.older } : query.newer !== undefined ? { newer: query.newer } : 'newest';
  const page = await repository.journalPage(ctx.db, filter, direction, query.pageSize);
  const items = await toEntries(ctx.db, page.rows);
  const first = items[0]?.seq;
  const last = items[items.length - 1]?.seq;
  // An empty page past either end still points back at what exists.
  const olderCursor = page.hasOlder ? (last ?? (typeof direction === 'object' && 'newer' in direction ? direction.newer + 1 : null)) : null;
  const newerCursor = page.hasNewer ? (first ?? (typeof direction === 'object' && 'older' in direction ? direction.older - 1 : null)) : null;
  return {
    items,
    olderCursor: olderCursor === null ? null : String(olderCursor),
    newerCursor: newerCursor === null ? null : String(newerCursor),
    pageSize: query.pageSize,
    ...(query.customer ? { customerFound: true } : {}),
  };
}

/** GET /admin/journal/:id: the entry, all its postings, its chain link, its reversal and its audit records. */
export async function journalEntry(ctx: AppContext, id: string): Promise<JournalEntryDetailDto> {
  const row = await repository.findEntry(ctx.db, id);
  if (!row) throw notFound(ENTRY_NOT_FOUND);
  const [[entry], chain, notes, reverses] = await Promise.all([
    toEntries(ctx.db, [row]),
    repository.chainLink(ctx.db, row.id),
    repository.descriptionNotes(ctx.db, row.id),
    row.reversal_of ? repository.findEntry(ctx.db, row.reversal_of) : Promise.resolve(undefined),
  ]);
  assert(entry, 'the entry read back');
  const customers = [...new Set(entry.postings.flatMap((posting) => (posting.ownerId ? [posting.ownerId] : [])))];
  const audit = await repository.auditRecordsOf(ctx.db, row, customers);
  const reversal = entry.reversedBy ? await repository.findEntry(ctx.db, entry.reversedBy) : undefined;
  const ref = (found: repository.EntryRow | undefined) =>
    found ? { id: found.id, description: found.description, bookedAt: new Date(found.booked_at).toISOString() } : null;
  const reason = row.details && typeof row.details.reason === 'string' ? row.details.reason : null;
  const approvalId = row.details && typeof row.details.approvalId === 'string' ? row.details.approvalId : null;
  const approval = approvalId ? await findApproval(ctx.db, approvalId) : undefined;
  return {
    ...entry,
    approval: approval ? toApprovalDto(approval, ctx.clock.now()) : null,
    postedDescription: row.description,
    reason,
    chain: chain
      ? {
          position: Number(chain.position),
          hash: chain.hash,
          prevHash: chain.prev_hash,
          prevEntryId: chain.prev_entry_id ?? null,
          sealedAt: new Date(chain.sealed_at).toISOString(),
        }
      : null,
    reverses: ref(reverses),
    reversal: ref(reversal),
    audit: audit.map((record) => ({
      id: record.id,
      at: new Date(record.at).toISOString(),
      actorEmail: record.actor_email,
      action: record.action,
      reason: record.reason,
      before: record.before,
      after: record.after,
    })),
    descriptionNotes: notes.map((note) => ({ description: note.description, at: new Date(note.created_at).toISOString(), authorId: note.author_id })),
  };
}

/** GET /admin/accounts: the bank's own accounts, or one customer's. */
export async function listAccounts(ctx: AppContext, ownerId: string | undefined): Promise<LedgerAccountDto[]> {
  return (await repository.accounts(ctx.db, ownerId ?? null)).map(toAccount);
}

export async function accountById(ctx: AppContext, id: string): Promise<LedgerAccountDto> {
  const row = await repository.findAccount(ctx.db, id);
  if (!row) throw notFound('Account not found');
  return toAccount(row);
}
