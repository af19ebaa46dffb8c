import { parse } from 'csv-parse/sync';
import type { z } from 'zod';
import {
  BULK_EMPTY_MESSAGE,
  BULK_PAYMENTS_MAX,
  BULK_ROWS_MESSAGE,
  BULK_SUCCESS_MESSAGE,
  BULK_TOO_MANY_MESSAGE,
  type BulkPaymentRow,
  type BulkResult,
  type BulkRowError,
  checkBulkRows,
  rowsFromCsvRecords,
  type ZBulkPaymentRequest,
} from '../../shared/contracts/bulk-payments';
import { formatCents } from '../../shared/money';
import { sha256 } from '../auth/crypto';
import type { ActorContext } from '../context';
import type { IdempotencyTicket } from '../ledger/idempotency';
import type { EntryInput, PostedEntry } from '../ledger/posting';
import { uuidv7 } from '../ledger/uuid';
import type { AtomicAnswerBuilder, NamedAnswer } from '../ledger/writer';
import { AppError, assert, badRequest, forbidden, notFound } from '../lib/errors';
import type { Outcome } from '../lib/outcome';
import { assertPaymentsNotHeld } from '../payment-limits/service';
import { BLOCKED_MESSAGE } from '../transactions/service';
import { type ApprovalStepOutcome, approvePayment } from '../payment-approval/service';
import * as transactions from '../transactions/repository';
import * as repository from './repository';
import { checkPayeeName } from '../transactions/payee-check';
import type { PayeeCheck } from '../../shared/contracts/payment-approval';

type BulkInput = z.output<typeof ZBulkPaymentRequest>;

/** Bad rows: answered 400 `{ message, code, rows }` by the route; nothing was posted. */
export class BulkRowsError extends AppError {
  constructor(public readonly rows: BulkRowError[]) {
    super('validation', BULK_ROWS_MESSAGE);
  }
}

const CODE_MESSAGES = {
  missing: 'No IMS code is waiting for this batch of payments. Please request a new code.',
  expired: 'This IMS code has expired. Please request a new code.',
  wrong: 'The IMS code is not correct.',
  exhausted: 'Too many wrong IMS codes. Please request a new code.',
};

const PAYEE_UNKNOWN = 'No account with this number at this bank';
const PAYEE_CLOSED = 'This account is closed and cannot receive payments';
const PAYEE_SELF = 'You cannot pay your own account';

/** The CSV text as raw rows (RFC 4180, a header line first); a file that is not CSV is one 400. */
function csvRows(csv: string): unknown[] {
  let records: string[][];
  try {
    records = parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 10_000, to: BULK_PAYMENTS_MAX + 2 });
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Invalid [^:]*: /, '').slice(0, 200) : 'unreadable';
    throw badRequest(`The CSV file could not be read: ${reason}`, { csv: 'Not a valid CSV file' });
  }
  const mapped = rowsFromCsvRecords(records);
  if ('error' in mapped) throw badRequest(mapped.error, { csv: mapped.error });
  return mapped.rows;
}

interface Payee {
  accountId: string;
  /** The row's name against the account's holder (ADR 029). */
  payeeCheck: PayeeCheck;
}

/**
 * Every row checked (format, then the account behind each well-formed number) before anything is
 * posted: the rows with their payees, or a BulkRowsError naming every bad row.
 */
async function checkedRows(ctx: ActorContext, raw: unknown[], ownNumber: string): Promise<Array<BulkPaymentRow & Payee>> {
  if (raw.length === 0) throw badRequest(BULK_EMPTY_MESSAGE, { payments: BULK_EMPTY_MESSAGE });
  if (raw.length > BULK_PAYMENTS_MAX) throw badRequest(BULK_TOO_MANY_MESSAGE, { payments: BULK_TOO_MANY_MESSAGE });
  const format = checkBulkRows(raw);
  const errors = format.ok ? [] : [...format.errors];
  const numberOf = (value: unknown) => {
    const number = (value as { accountNumber?: unknown } | null)?.accountNumber;
    return typeof number === 'string' && /^[0-9]{10}$/.test(number.trim()) ? number.trim() : null;
  };
  const numbers = [...new Set(raw.map(numberOf).filter((number): number is string => number !== null))];
  const payees = new Map((await repository.findPayees(ctx.db, numbers)).map((payee) => [payee.number, payee]));
  raw.forEach((value, index) => {
    const number = numberOf(value);
    if (number === null) return;
    const payee = payees.get(number);
    const problem = number === ownNumber ? PAYEE_SELF : !payee ? PAYEE_UNKNOWN : payee.closed_at ? PAYEE_CLOSED : null;
    if (problem) errors.push({ row: index + 1, field: 'accountNumber', message: problem });
  });
  if (errors.length > 0 || !format.ok) throw new BulkRowsError(errors.sort((a, b) => a.row - b.row));
  return format.rows.map((row) => {
    const payee = payees.get(row.accountNumber);
    assert(payee, 'every checked row has its payee');
    return { ...row, accountId: payee.id, payeeCheck: checkPayeeName(row.name, { firstName: payee.first_name, lastName: payee.last_name }) };
  });
}

/** A row as the ledger pays it: its amount (cents) into this account, with the payer's words for it. */
export interface BulkLedgerRow {
  accountNumber: string;
  accountId: string;
  amount: number;
  name: string;
  description?: string | null | undefined;
  /** What the payer was told of the row's name (ADR 029): kept with the payment. */
  payeeCheck?: PayeeCheck;
}

/**
 * A batch as journal entries: one a row, a transfer to another customer (the payer's debit and the
 * payee's credit), so each payment is its own line on both sides, reversed, noted and audited on
 * its own (ADR 028 measured fewer, larger entries and why they were not kept).
 */
export function bulkEntries(
  rows: BulkLedgerRow[],
  batch: { sourceAccountId: string; batchId: string; senderName: string; authorId: string | null },
): EntryInput[] {
  return rows.map((row, index) => {
    const description = row.description ?? `Payment to ${row.name}`;
    return {
      kind: 'transfer',
      description,
      authorId: batch.authorId,
      details: {
        bulk: { batchId: batch.batchId, row: index + 1 },
        payee: { accountNumber: row.accountNumber, to: row.name, internal: true, ...(row.payeeCheck ? { nameCheck: row.payeeCheck.result } : {}) },
      },
      postings: [
        { accountId: batch.sourceAccountId, amountCents: -row.amount, memo: description, counterparty: row.name },
        {
          accountId: row.accountId,
          amountCents: row.amount,
          memo: `Transfer from ${batch.senderName}${row.description ? `: ${row.description}` : ''}`,
          counterparty: batch.senderName,
        },
      ],
    };
  });
}

const BULK_RESULT = 'bulk-result';

interface BulkResultArgs {
  batchId: string;
  sourceAccountId: string;
  count: number;
  totalCents: number;
}

/**
 * What a bulk payment answers (its batch and each row's entry and line), named rather than a
 * function so that another process's writer can build it: a cluster's workers hand their bulk
 * payments to the primary's writer (ledger/cluster.ts), which stores this answer with the entries.
 */
export const bulkResult = (args: BulkResultArgs): NamedAnswer<BulkResult> => ({ name: BULK_RESULT, args });

/** The named answers of atomic postings (createAppContext gives them to every writer). */
export const bulkAnswers: Record<string, AtomicAnswerBuilder> = {
  [BULK_RESULT]: (posted, args): Outcome<BulkResult> => {
    const { batchId, sourceAccountId, count, totalCents } = args as BulkResultArgs;
    assert(posted.length === count, 'one entry per row');
    return {
      data: {
        batchId,
        count,
        total: totalCents / 100,
        results: posted.map((entry, index) => ({ row: index + 1, entryId: entry.id, transactionId: payerLineOf(entry, sourceAccountId) })),
      },
      message: BULK_SUCCESS_MESSAGE,
      created: true,
    };
  },
};

/** The payer's posting of a row's entry: its line in their history, statements and exports. */
function payerLineOf(entry: PostedEntry, sourceAccountId: string): string {
  const line = entry.postings.find((posting) => posting.accountId === sourceAccountId);
  assert(line, "every row's entry debits the payer's account");
  return line.id;
}

/**
 * A bulk payment (issue 14): every row validated first; then the transfer's two calls, with one
 * IMS code bound to the batch (its source account, row count, total and a hash of the rows); then
 * all rows posted in one ledger transaction, all or nothing (insufficient funds for the total
 * fails the whole batch). Idempotent as every money call: the outcome is stored with the entries.
 */
export async function payBulk(ctx: ActorContext, input: BulkInput, ticket: IdempotencyTicket): Promise<ApprovalStepOutcome | Outcome<BulkResult>> {
  const user = ctx.actor.user;
  if (user.is_blocked) throw forbidden(BLOCKED_MESSAGE);
  // A hold after too many wrong codes stops batches as it stops transfers (abuse limits, ADR 016).
  assertPaymentsNotHeld(ctx, user);
  const own = await transactions.findOwnAccounts(ctx.db, user.id);
  if (!own) throw notFound('This customer has no accounts.');
  const rows = await checkedRows(ctx, input.payments ?? csvRows(input.csv ?? ''), own.number);
  const source = own[input.from];
  const totalCents = rows.reduce((sum, row) => sum + row.amount, 0);
  assert(Number.isSafeInteger(totalCents), 'the total is a safe integer');
  if (source.balance < totalCents) throw new AppError('insufficient_funds', 'Insufficient funds');

  // Dynamic linking: the approval authorizes exactly these rows, from this account.
  const rowsHash = sha256(JSON.stringify(rows.map((row) => [row.accountNumber, row.amount, row.name, row.description ?? null])));
  const label = `${rows.length} payment${rows.length === 1 ? '' : 's'}`;
  // Confirmation of payee a row (ADR 029): the rows whose name is not the holder's, told on the
  // step, without the holders' names: one call checks up to 1,000 rows, so naming them would let a
  // batch of guesses read the names behind account numbers a thousand at a time.
  const payeeChecks = rows.flatMap((row, index) => (row.payeeCheck.result === 'match' ? [] : [{ row: index + 1, result: row.payeeCheck.result }]));
  // A batch's descriptions are in its rows' hash; its own description is none.
  const step = await approvePayment(
    ctx,
    { kind: 'bulk', fromAccountId: source.id, amountCents: totalCents, payee: { rows: rowsHash }, description: null, terms: { count: rows.length } },
    {
      payeeLabel: label,
      summary: `a bulk payment of ${label} totalling ${formatCents(totalCents)} from your ${input.from} account`,
      codeMessages: CODE_MESSAGES,
      payeeChecks,
    },
    input,
    ticket,
  );
  if (step) return step;

  const batchId = uuidv7(ctx.clock.now().getTime());
  const entries = bulkEntries(rows, { sourceAccountId: source.id, batchId, senderName: `${user.first_name} ${user.last_name}`.trim(), authorId: user.id });
  // All or nothing through the writer: every entry commits with the stored answer, or none does.
  return ctx.ledger.postAll({
    entries,
    idempotency: ticket,
    answer: bulkResult({ batchId, sourceAccountId: source.id, count: rows.length, totalCents }),
  });
}
