import { APPROVAL_KIND_LABELS, type ApprovalKind } from '../../shared/contracts/approvals';
import { ENTRY_KIND_LABELS, type EntryKindName } from '../../shared/contracts/transactions';
import { NOTE_ADDED_MESSAGE, type NoteDto, type TimelineEventDto, type TimelineKind, type TimelinePage } from '../../shared/contracts/timeline';
import { formatCents } from '../../shared/money';
import { audit } from '../audit/audit';
import type { ActorContext, AppContext } from '../context';
import { findUser, lockUser } from '../customers/repository';
import { inTransaction } from '../db/transaction';
import { customerAccountIds } from '../journal/repository';
import { badRequest, conflict, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { describeUserAgent } from '../lib/user-agent';
import * as repository from './repository';

// The customer page as one place (issue 15): a newest-first timeline of what happened to a
// customer, and staff notes. Notes are append-only and every one is audited (without its text:
// the note is the record, and its text is erased with the customer's personal data on closing).

export const USER_NOT_FOUND = 'User not found';

const DOCUMENT_TYPES: Record<string, string> = { passport: 'Passport', national_id: 'National ID', drivers_license: "Driver's license" };
const KYC_DECISIONS: Record<string, string> = { verified: 'Identity verified', failed: 'Identity not verified' };
const LOAN_DECISIONS: Record<string, string> = { approved: 'Loan approved', rejected: 'Loan declined', withdrawn: 'Loan withdrawn' };
const RECOVERY_STEPS: Record<string, string> = {
  'account_recovery.start': 'Account recovery started (takes effect in 24 hours)',
  'account_recovery.cancel': 'Account recovery cancelled',
  'account_recovery.complete': 'Account recovered: second factors removed',
};
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const cents = (value: unknown): number | null => (typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : null);

function toEvent(row: repository.TimelineRow): TimelineEventDto {
  const data = row.data;
  const base = { kind: row.kind as TimelineKind, id: row.id, at: new Date(row.at).toISOString(), amountCents: null, entryId: null, actor: null };
  switch (row.kind) {
    case 'entry':
      return {
        ...base,
        title: ENTRY_KIND_LABELS[data.entryKind as EntryKindName] ?? 'Entry',
        detail: text(data.description),
        amountCents: cents(data.amount),
        entryId: row.id,
      };
    case 'sign_in':
      return {
        ...base,
        title: 'Signed in',
        detail: [describeUserAgent(text(data.userAgent)), text(data.ip)].filter(Boolean).join(' · ') + (data.endedAt ? ' · ended' : ''),
      };
    case 'kyc_submitted':
      return { ...base, title: 'Identity documents sent', detail: DOCUMENT_TYPES[String(data.documentType)] ?? null };
    case 'kyc_decided':
      return { ...base, title: KYC_DECISIONS[String(data.status)] ?? 'Identity decision', detail: text(data.reason), actor: text(data.reviewer) };
    case 'loan_applied':
      return {
        ...base,
        title: 'Loan application',
        detail: `${String(data.loanType)} loan of ${formatCents(cents(data.amount))} over ${String(data.months)} months`,
        amountCents: cents(data.amount),
      };
    case 'loan_decided':
      return {
        ...base,
        title: LOAN_DECISIONS[String(data.status)] ?? 'Loan decision',
        detail: [`${String(data.loanType)} loan of ${formatCents(cents(data.amount))}`, text(data.reason)].filter(Boolean).join(': '),
        amountCents: cents(data.amount),
        actor: text(data.decider),
      };
    case 'card_requested':
      return {
        ...base,
        title: `${String(data.cardType) === 'credit' ? 'Credit' : 'Debit'} card requested`,
        detail: [`Status: ${String(data.status)}`, text(data.note)].filter(Boolean).join(' · '),
      };
    case 'approval': {
      const kind = String(data.approvalKind) as ApprovalKind;
      const status = String(data.status);
      const decided = status === 'pending' ? `asked by ${String(data.requester)}` : `${status}${data.decider ? ` by ${String(data.decider)}` : ''}`;
      return {
        ...base,
        title: `${APPROVAL_KIND_LABELS[kind] ?? 'Request'} (four eyes): ${status}`,
        detail: [text(data.summary), decided, text(data.reason)].filter(Boolean).join(' · '),
        actor: text(data.requester),
      };
    }
    case 'recovery':
      return {
        ...base,
        title: RECOVERY_STEPS[String(data.action)] ?? 'Account recovery',
        detail: data.erased ? '(erased when the account was closed)' : text(data.reason),
        actor: text(data.actor),
      };
    default:
      return { ...base, title: 'Staff note', detail: data.erased ? '(erased when the account was closed)' : text(data.body), actor: text(data.author) };
  }
}

function parseCursor(cursor: string): repository.TimelinePosition {
  const [atMicros, kind, id] = cursor.split('.');
  if (!atMicros || !kind || !id) throw badRequest('before must be a position the timeline answered (nextCursor)', { before: 'Not a timeline position' });
  return { atMicros: Number(atMicros), kind, id };
}

/** GET /user/admin/:id/timeline: one page, newest first. */
export async function customerTimeline(ctx: AppContext, userId: string, query: { before?: string | undefined; pageSize: number }): Promise<TimelinePage> {
  if (!(await findUser(ctx.db, userId))) throw notFound(USER_NOT_FOUND);
  const accounts = await customerAccountIds(ctx.db, { id: userId });
  const rows = await repository.timeline(ctx.db, userId, accounts, query.before ? parseCursor(query.before) : undefined, query.pageSize + 1);
  const page = rows.slice(0, query.pageSize);
  const last = page[page.length - 1];
  return {
    items: page.map(toEvent),
    nextCursor: rows.length > query.pageSize && last ? `${last.at_micros}.${last.kind}.${last.id}` : null,
    pageSize: query.pageSize,
  };
}

/** POST /user/admin/:id/notes: a staff note on the user's page, audited in the same transaction. */
export async function addNote(ctx: ActorContext, userId: string, body: string): Promise<Outcome<NoteDto>> {
  const note = await inTransaction(ctx.db, async (trx) => {
    const user = await lockUser(trx, userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    if (user.closed_at) throw conflict('This account is closed: its page takes no new notes.');
    const note = await repository.insertNote(trx, { userId, authorId: ctx.actor.user.id, authorEmail: ctx.actor.user.email, body });
    await audit(trx, ctx.actor, {
      action: 'user.note',
      targetUserId: userId,
      targetType: 'customer_note',
      targetId: String(note.id),
      after: { noteId: String(note.id), length: body.length },
    });
    return note;
  });
  return {
    data: { id: String(note.id), userId: note.user_id, body: note.body, authorEmail: note.author_email, createdAt: new Date(note.created_at).toISOString() },
    message: NOTE_ADDED_MESSAGE,
    created: true,
  };
}
