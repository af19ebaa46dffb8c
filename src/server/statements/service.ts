import { createHash } from 'node:crypto';
import { bankDetails } from '../../shared/bank-details';
import {
  EXPORT_LINES_MAX,
  type ExportQuery,
  maskAccountNumber,
  type PublicKeyDto,
  type StatementCalendar,
  STATEMENT_FILE_BYTES_MAX,
  STATEMENT_LINES_MAX,
  type StatementSummary,
  type VerifyResult,
} from '../../shared/contracts/statements';
import type { CustomerAccountKind } from '../../shared/contracts/transactions';
import { routes } from '../../shared/routes';
import type { ActorContext, AppContext } from '../context';
import { inTransaction } from '../db/transaction';
import { sealPending } from '../ledger/sealer';
import { uuidv7 } from '../ledger/uuid';
import { notify } from '../notifications/service';
import { bankDate, bankMonth, bankMonthRange, nextDate, previousDate, previousMonth, startOfBankDay } from '../lib/bank-time';
import { AppError, assert, badRequest, conflict, notFound } from '../lib/errors';
import { findSigningKey, listSigningKeys, registerSigningKey } from '../signing/repository';
import { verifySignature } from '../signing/keys';
import { statementFigures, type StatementFigures } from './content';
import { exportCsv, exportOfx } from './export';
import { declaresInterim, renderStatementPdf } from './pdf';
import * as repository from './repository';
import { statementMessage, type SignedStatementFields } from './signature';

/**
 * A month's statement is made this long after the month ends, not at once: an entry booked in the
 * month's last instant has committed (and been sealed) by then. Until then the month is "closing".
 */
export const STATEMENT_CLOSE_GRACE_MS = 60_000;
/** How long making a statement waits for its last entry to be sealed (it seals it itself meanwhile). */
export const STATEMENT_SEAL_WAIT_MS = 5_000;
/** The list goes back at most this many months (ten years). */
export const STATEMENT_MONTHS_LISTED_MAX = 120;
/** The monthly job looks back this many months for months it has not done (downtime). */
export const STATEMENT_CATCH_UP_MONTHS = 12;

export const STATEMENTS_MONTHLY_TASK = 'statements_monthly';
export const MAKE_STATEMENT_TASK = 'make_statement';
/** Tries of one statement's job before it shows as failed on the back office's jobs page. */
export const MAKE_STATEMENT_ATTEMPTS_MAX = 10;

export const NO_STATEMENT_MESSAGE = 'There is no statement for that month: the account had no transactions in it.';
export const FUTURE_MONTH_MESSAGE = 'Statements are for the current month or earlier months.';
export const CLOSING_MONTH_MESSAGE = 'That month has just ended: its statement is being made. Please try again in a minute.';

type StatementContext = Pick<AppContext, 'db' | 'clock' | 'config' | 'signer' | 'log'>;
type MonthState = 'future' | 'current' | 'closing' | 'closed';

function monthState(month: string, now: Date, zone: string): MonthState {
  const { from, to } = bankMonthRange(month, zone);
  if (now.getTime() < from.getTime()) return 'future';
  if (now.getTime() < to.getTime()) return 'current';
  return now.getTime() < to.getTime() + STATEMENT_CLOSE_GRACE_MS ? 'closing' : 'closed';
}

const dayLabel = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const customerNameOf = (account: repository.StatementAccount) => `${account.firstName} ${account.lastName}`.trim();
const verifyUrlOf = (ctx: Pick<AppContext, 'config'>) => `${ctx.config.publicUrl}${routes.verifyStatement.path}`;

async function customerAccount(ctx: ActorContext, kind: CustomerAccountKind): Promise<repository.StatementAccount> {
  const account = await repository.findCustomerAccount(ctx.db, ctx.actor.user.id, kind);
  if (!account) throw notFound('This customer has no accounts.');
  return account;
}

/** The figures of the account's postings between two cuts, checked line by line and against PostgreSQL's own sum. */
async function figuresBetween(ctx: Pick<AppContext, 'db'>, accountId: string, afterSeq: number, throughSeq: number, linesMax: number, tooMany: () => AppError) {
  const totals = await repository.totalsBetween(ctx.db, accountId, afterSeq, throughSeq);
  if (totals.count > linesMax) throw tooMany();
  const [openingCents, lines] = await Promise.all([
    repository.balanceAfterSeq(ctx.db, accountId, afterSeq),
    throughSeq > afterSeq ? repository.linesBetween(ctx.db, accountId, afterSeq, throughSeq, linesMax) : Promise.resolve([]),
  ]);
  return statementFigures(openingCents, lines, totals);
}

const tooManyLines = () =>
  conflict(
    `That month has more than ${STATEMENT_LINES_MAX.toLocaleString('en-US')} transactions, more than one statement holds: export it as CSV or OFX instead.`,
  );

// ---------------------------------------------------------------- making a statement

/**
 * The chain link of an entry: a closed month's last entry was sealed long ago; one that is not yet
 * (the sealer was down, or the month closed moments ago) is sealed here: sealing is the same work
 * whoever does it, one sealer at a time (ADR 008). Past STATEMENT_SEAL_WAIT_MS: 503, try again.
 */
async function sealedLink(ctx: Pick<AppContext, 'db'>, entryId: string): Promise<{ position: number; hash: string }> {
  const deadline = Date.now() + STATEMENT_SEAL_WAIT_MS;
  for (;;) {
    const link = await repository.chainLinkOf(ctx.db, entryId);
    if (link) return link;
    if (Date.now() > deadline) throw new AppError('unavailable', 'The ledger is still sealing the last entry of that month. Please try again in a moment.');
    const sealed = await sealPending(ctx.db);
    if (!sealed) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function documentOf(
  ctx: StatementContext,
  input: { account: repository.StatementAccount; month: string; interim: boolean; figures: StatementFigures; now: Date; statementId: string | null },
) {
  const zone = ctx.config.timeZone;
  const first = `${input.month}-01`;
  const last = input.interim ? bankDate(input.now, zone) : previousDate(bankDate(bankMonthRange(input.month, zone).to, zone));
  return {
    interim: input.interim,
    demo: ctx.config.demoMode,
    statementId: input.statementId,
    issuedAt: input.now,
    bank: { name: ctx.config.bankName, address: bankDetails.address, routingNumber: bankDetails.routingNumber },
    verifyUrl: verifyUrlOf(ctx),
    customerName: customerNameOf(input.account),
    account: input.account.kind,
    accountNumber: input.account.number,
    periodLabel: `${dayLabel(first)} to ${dayLabel(last)}${input.interim ? ' (so far)' : ''}`,
    timeZone: zone,
    figures: input.figures,
  };
}

/**
 * Makes, signs and stores the statement of a closed month, once: answers the stored one when it
 * exists (made by an earlier download, the job, or another instance a moment ago: the unique
 * account and period decide), and null when the account had no transactions that month.
 */
export async function issueStatement(ctx: StatementContext, account: repository.StatementAccount, month: string): Promise<repository.StatementRow | null> {
  const existing = await repository.findStatement(ctx.db, account.id, month);
  if (existing) return existing;
  const zone = ctx.config.timeZone;
  assert(monthState(month, ctx.clock.now(), zone) === 'closed', 'statements are made for closed months only');
  const range = bankMonthRange(month, zone);
  const [afterSeq, throughSeq] = await Promise.all([repository.cutSeq(ctx.db, account.id, range.from), repository.cutSeq(ctx.db, account.id, range.to)]);
  if (throughSeq <= afterSeq) return null;
  const figures = await figuresBetween(ctx, account.id, afterSeq, throughSeq, STATEMENT_LINES_MAX, tooManyLines);
  const last = figures.lines.at(-1);
  assert(last && last.seq === throughSeq, "the statement's last line is the month's last posting");
  const link = await sealedLink(ctx, last.entryId);

  const issuedAt = ctx.clock.now();
  const statementId = uuidv7(issuedAt.getTime());
  const pdf = await renderStatementPdf(documentOf(ctx, { account, month, interim: false, figures, now: issuedAt, statementId }));
  assert(pdf.length <= STATEMENT_FILE_BYTES_MAX, 'every statement fits in what the verifier reads');
  const fields: SignedStatementFields = {
    statementId,
    keyId: ctx.signer.keyId,
    issuedAt: issuedAt.toISOString(),
    customerName: customerNameOf(account),
    accountNumberMasked: maskAccountNumber(account.number),
    account: account.kind,
    period: month,
    sha256: sha256Hex(pdf),
    ledgerChainPosition: link.position,
    ledgerChainHash: link.hash,
  };
  const signature = ctx.signer.sign(statementMessage(fields));
  const stored = await inTransaction(ctx.db, async (trx) => {
    // The key is published (signing_keys) in the transaction that first stores a signature by it.
    await registerSigningKey(trx, ctx.signer);
    const inserted = await repository.insertStatement(trx, {
      id: statementId,
      user_id: account.ownerId,
      account_id: account.id,
      account_kind: account.kind,
      period: month,
      time_zone: zone,
      after_seq: afterSeq,
      through_seq: throughSeq,
      line_count: figures.lines.length,
      opening_cents: figures.openingCents,
      closing_cents: figures.closingCents,
      total_in_cents: figures.totalInCents,
      total_out_cents: figures.totalOutCents,
      last_entry_id: last.entryId,
      ledger_chain_position: link.position,
      ledger_chain_hash: link.hash,
      customer_name: fields.customerName,
      account_number: account.number,
      pdf,
      sha256: fields.sha256,
      key_id: fields.keyId,
      signature,
      issued_at: issuedAt,
    });
    // The customer hears of it once, with the statement (issue 14: "statement ready").
    if (inserted)
      await notify({ ...ctx, db: trx }, { userId: account.ownerId, kind: 'statement_ready', key: `${account.kind}:${month}`, month, account: account.kind });
    return inserted;
  });
  const row = await repository.findStatement(ctx.db, account.id, month);
  assert(row, 'the statement is stored');
  if (stored) ctx.log.info({ statementId, period: month, account: account.kind }, 'statement issued');
  return row;
}

// ---------------------------------------------------------------- the customer's calls

/**
 * GET /statements: every closed month in which one of the customer's accounts moved, with when its
 * statement was issued (null: not made yet; the monthly job or the first download makes it).
 * One pass over the customer's postings finds the months (repository.lastSeqByPeriod).
 */
export async function listMyStatements(ctx: ActorContext): Promise<StatementSummary[]> {
  const userId = ctx.actor.user.id;
  const zone = ctx.config.timeZone;
  const now = ctx.clock.now();
  const [stored, first] = await Promise.all([repository.listStoredStatements(ctx.db, userId), repository.firstBookedAt(ctx.db, userId)]);
  const found = new Map<string, StatementSummary>();
  for (const row of stored) {
    found.set(`${row.period} ${row.account_kind}`, { month: row.period, account: row.account_kind, issuedAt: new Date(row.issued_at).toISOString() });
  }
  if (first) {
    // The months from the first posting's to the current one (whose start closes the last bucket).
    const months = [bankMonth(now, zone)];
    const firstMonth = bankMonth(first, zone);
    while (months[0]! > firstMonth && months.length <= STATEMENT_MONTHS_LISTED_MAX) months.unshift(previousMonth(months[0]!));
    const bounds = months.map((month) => bankMonthRange(month, zone).from);
    const buckets = await repository.lastSeqByPeriod(ctx.db, userId, bounds);
    for (const account of ['savings', 'checking'] as const) {
      const lastSeqs = new Map(buckets.filter((bucket) => bucket.account === account).map((bucket) => [bucket.bucket, bucket.lastSeq]));
      let cut = lastSeqs.get(0) ?? 0;
      // Bucket i holds months[i - 1]; the last bucket (the current month) has no statement yet.
      for (let bucket = 1; bucket < months.length; bucket += 1) {
        const lastSeq = lastSeqs.get(bucket);
        const month = months[bucket - 1]!;
        if (lastSeq !== undefined && lastSeq > cut && monthState(month, now, zone) === 'closed' && !found.has(`${month} ${account}`)) {
          found.set(`${month} ${account}`, { month, account, issuedAt: null });
        }
        if (lastSeq !== undefined) cut = Math.max(cut, lastSeq);
      }
    }
  }
  return [...found.values()].sort((a, b) => (a.month === b.month ? a.account.localeCompare(b.account) : b.month.localeCompare(a.month)));
}

/** GET /statements/calendar: the bank's current month and date, in BANK_TIMEZONE. */
export function calendar(ctx: Pick<AppContext, 'clock' | 'config'>): StatementCalendar {
  const now = ctx.clock.now();
  return { currentMonth: bankMonth(now, ctx.config.timeZone), today: bankDate(now, ctx.config.timeZone), timeZone: ctx.config.timeZone };
}

export interface StatementFile {
  bytes: Buffer;
  fileName: string;
  interim: boolean;
}

/**
 * GET /statements/{month}.pdf: a closed month's statement as issued (made now if it was not yet),
 * or the current month's interim statement, made for this download only: not signed, not kept.
 */
export async function statementPdf(ctx: ActorContext, month: string, kind: CustomerAccountKind): Promise<StatementFile> {
  const now = ctx.clock.now();
  const state = monthState(month, now, ctx.config.timeZone);
  if (state === 'future') throw badRequest(FUTURE_MONTH_MESSAGE, { month: FUTURE_MONTH_MESSAGE });
  if (state === 'closing') throw conflict(CLOSING_MONTH_MESSAGE);
  const account = await customerAccount(ctx, kind);
  const fileName = `statement-${kind}-${month}`;
  if (state === 'current') {
    const range = bankMonthRange(month, ctx.config.timeZone);
    const [afterSeq, throughSeq] = await Promise.all([repository.cutSeq(ctx.db, account.id, range.from), repository.cutSeq(ctx.db, account.id, now)]);
    const figures = await figuresBetween(ctx, account.id, afterSeq, Math.max(afterSeq, throughSeq), STATEMENT_LINES_MAX, tooManyLines);
    const bytes = await renderStatementPdf(documentOf(ctx, { account, month, interim: true, figures, now, statementId: null }));
    return { bytes, fileName: `${fileName}-interim`, interim: true };
  }
  const statement = await issueStatement(ctx, account, month);
  if (!statement) throw notFound(NO_STATEMENT_MESSAGE);
  return { bytes: statement.pdf, fileName, interim: false };
}

// ---------------------------------------------------------------- verification (public)

function signedFieldsOf(row: NonNullable<repository.StatementRow>): SignedStatementFields {
  return {
    statementId: row.id,
    keyId: row.key_id,
    issuedAt: new Date(row.issued_at).toISOString(),
    customerName: row.customer_name,
    accountNumberMasked: maskAccountNumber(row.account_number),
    account: row.account_kind,
    period: row.period,
    sha256: row.sha256,
    ledgerChainPosition: Number(row.ledger_chain_position),
    ledgerChainHash: row.ledger_chain_hash,
  };
}

/**
 * POST /statements/verify: genuine when the bytes are exactly those of a statement the bank issued
 * (their SHA-256 finds it, and the bytes compare equal) and its stored signature verifies with the
 * published key of its key id. Anything else, a PDF with one digit changed included, is not.
 */
export async function verifyStatement(ctx: Pick<AppContext, 'db' | 'log'>, bytes: Buffer): Promise<VerifyResult> {
  const sha256 = sha256Hex(bytes);
  const row = await repository.findStatementBySha256(ctx.db, sha256);
  if (!row || !Buffer.from(row.pdf).equals(bytes)) return declaresInterim(bytes) ? { genuine: false, interim: true } : { genuine: false };
  const fields = signedFieldsOf(row);
  const publicKey = await findSigningKey(ctx.db, row.key_id);
  if (!publicKey || !verifySignature(publicKey, statementMessage(fields), row.signature)) {
    // The bytes match a stored statement whose signature does not: the row was changed behind the app's back.
    ctx.log.error({ statementId: row.id, keyId: row.key_id }, 'a stored statement does not verify with its key');
    return { genuine: false };
  }
  return { genuine: true, ...fields, signature: row.signature };
}

/** GET /statements/public-key: every key the bank has signed statements with, and the one it signs with now. */
export async function publicKeys(ctx: Pick<AppContext, 'db' | 'signer'>): Promise<PublicKeyDto[]> {
  const keys = await listSigningKeys(ctx.db);
  const published: PublicKeyDto[] = keys.map((key) => ({
    keyId: key.keyId,
    algorithm: key.algorithm,
    publicKey: key.publicKey,
    firstUsedAt: key.firstUsedAt.toISOString(),
    current: key.keyId === ctx.signer.keyId,
  }));
  if (!published.some((key) => key.current)) {
    published.push({ keyId: ctx.signer.keyId, algorithm: 'Ed25519', publicKey: ctx.signer.publicKeyPem, firstUsedAt: null, current: true });
  }
  return published;
}

// ---------------------------------------------------------------- exports

export interface ExportFile {
  body: string;
  contentType: string;
  fileName: string;
}

/** GET /transaction/export: the account's postings booked on the bank dates from..to (inclusive), as CSV or OFX. */
export async function exportTransactions(ctx: ActorContext, query: ExportQuery): Promise<ExportFile> {
  const account = await customerAccount(ctx, query.account);
  const zone = ctx.config.timeZone;
  const range = { from: startOfBankDay(query.from, zone), to: startOfBankDay(nextDate(query.to), zone) };
  const [afterSeq, throughSeq] = await Promise.all([repository.cutSeq(ctx.db, account.id, range.from), repository.cutSeq(ctx.db, account.id, range.to)]);
  const figures = await figuresBetween(ctx, account.id, afterSeq, Math.max(afterSeq, throughSeq), EXPORT_LINES_MAX, () =>
    badRequest(`That range has more than ${EXPORT_LINES_MAX.toLocaleString('en-US')} transactions: choose a shorter one.`, { from: 'Choose a shorter range' }),
  );
  const input = {
    bank: { name: ctx.config.bankName, routingNumber: bankDetails.routingNumber },
    account: account.kind,
    accountNumber: account.number,
    lines: figures.lines,
    fromDate: query.from,
    toDate: query.to,
    range,
    closingCents: figures.closingCents,
    timeZone: zone,
    now: ctx.clock.now(),
  };
  const fileName = `transactions-${account.kind}-${query.from}-to-${query.to}`;
  return query.format === 'csv'
    ? { body: exportCsv(input), contentType: 'text/csv; charset=utf-8', fileName: `${fileName}.csv` }
    : { body: exportOfx(input), contentType: 'application/x-ofx; charset=utf-8', fileName: `${fileName}.ofx` };
}

// ---------------------------------------------------------------- the monthly job

/**
 * The statements_monthly task (hourly, jobs/registry.ts): for every closed month of the last
 * STATEMENT_CATCH_UP_MONTHS not done yet, oldest first, queues one make_statement job per account
 * that moved that month, and records the month as done, in one transaction. So on the 1st (in
 * BANK_TIMEZONE) last month is done within the hour, a month missed while no runner ran is done at
 * the next run, and a done month costs one lookup. The clock is the context's (tests move it).
 */
export async function queueMonthlyStatements(ctx: Pick<AppContext, 'db' | 'clock' | 'config' | 'log'>): Promise<{ months: string[]; queued: number }> {
  const zone = ctx.config.timeZone;
  const now = ctx.clock.now();
  const candidates: string[] = [];
  let month = bankMonth(now, zone);
  for (let back = 0; back < STATEMENT_CATCH_UP_MONTHS; back += 1) {
    month = previousMonth(month);
    if (monthState(month, now, zone) === 'closed') candidates.unshift(month);
  }
  const done = await repository.completedRuns(ctx.db, candidates);
  const months = candidates.filter((candidate) => !done.has(candidate));
  let queued = 0;
  for (const period of months) {
    queued += await inTransaction(ctx.db, async (trx) => {
      const count = await repository.queueStatementJobs(trx, MAKE_STATEMENT_TASK, period, bankMonthRange(period, zone), MAKE_STATEMENT_ATTEMPTS_MAX);
      await repository.markRunCompleted(trx, period, count);
      return count;
    });
  }
  if (months.length > 0) ctx.log.info({ months, accounts: queued }, 'monthly statements queued');
  return { months, queued };
}

/**
 * The make_statement task: one account's statement of one month (idempotent: a statement that
 * exists is left as it is). A month too busy for one statement is logged, not retried.
 */
export async function makeStatementJob(ctx: AppContext, payload: { accountId: string; month: string }): Promise<void> {
  const account = await repository.findAccountById(ctx.db, payload.accountId);
  if (!account) return;
  try {
    await issueStatement(ctx, account, payload.month);
  } catch (error) {
    if (error instanceof AppError && error.code === 'conflict') {
      ctx.log.warn({ accountId: account.id, period: payload.month }, error.message);
      return;
    }
    throw error;
  }
}
