import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminAccountUpdate, CustomerAccountKind, TransactionDto } from '../../shared/contracts/transactions';
import {
  ZAdminAccountUpdate,
  ZAdminTransactionRequest,
  ZInternalTransferRequest,
  ZTransferRequest,
  ZWireTransferRequest,
} from '../../shared/contracts/transactions';
import { TRANSFER_CODE_TTL_MS } from '../../shared/limits';
import { formatCents } from '../../shared/money';
import { bicCountry, wireCountries } from '../../shared/wire';
import { audit } from '../audit/audit';
import { consumeCode, issueCode } from '../auth/codes';
import { sha256 } from '../auth/crypto';
import type { DB } from '../db/database';
import type { User } from '../db/schema';
import { AppError, assert, badRequest, conflict, forbidden, notFound } from '../http/errors';
import { isValidAccountNumber } from '../ledger/accounts';
import type { IdempotencyTicket, IdempotentAnswer, SaveAnswer } from '../ledger/idempotency';
import { ledgerWriter } from '../ledger/writer';
import { bankAccountId, postEntries, type PostedEntry } from '../ledger/posting';
import { plainMail } from '../mail/templates';
import { entryLines } from './queries';
import type { z } from 'zod';

export const BLOCKED_MESSAGE = 'Your account is blocked from sending money. Please contact support.';

interface OwnAccounts {
  number: string;
  savings: { id: string; balance: number };
  checking: { id: string; balance: number };
}

export async function ownAccounts(db: DB, userId: string): Promise<OwnAccounts> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['id', 'kind', 'number', 'balance'])
    .where('owner_id', '=', userId)
    .where('kind', 'in', ['savings', 'checking'])
    .execute();
  const savings = rows.find((row) => row.kind === 'savings');
  const checking = rows.find((row) => row.kind === 'checking');
  if (!savings || !checking) throw notFound('This customer has no accounts.');
  return { number: checking.number ?? '', savings: { id: savings.id, balance: savings.balance }, checking: { id: checking.id, balance: checking.balance } };
}

const fullName = (user: Pick<User, 'first_name' | 'last_name'>) => `${user.first_name} ${user.last_name}`.trim();

/** The customer-side line of a just-posted entry for one account. */
function lineOf(entry: PostedEntry, accountId: string, account: CustomerAccountKind): TransactionDto {
  const posting = entry.postings.find((line) => line.accountId === accountId);
  assert(posting, 'the entry has a line on the account');
  return {
    _id: posting.id,
    entryId: entry.id,
    description: posting.memo ?? entry.description,
    date: entry.valueDate,
    bookedAt: entry.bookedAt.toISOString(),
    amount: Math.abs(posting.amountCents) / 100,
    transactionType: posting.amountCents > 0 ? 'credit' : 'debit',
    account,
    kind: entry.kind,
    status: 'completed',
    reversalOf: entry.reversalOf,
    reversedBy: null,
    counterparty: posting.counterparty,
    balanceAfter: posting.balanceAfterCents / 100,
  };
}

/** Posts the entry and stores the idempotent answer in one transaction; the line's _id is the posting's id. */
async function postAndAnswer(
  db: DB,
  save: SaveAnswer,
  entry: Parameters<typeof postEntries>[1][number],
  answer: (posted: PostedEntry, trx: DB) => Promise<IdempotentAnswer>,
): Promise<IdempotentAnswer> {
  return db.transaction().execute(async (trx) => {
    const [posted] = await postEntries(trx, [entry]);
    assert(posted, 'one entry posted');
    const result = await answer(posted, trx);
    await save(trx, result, posted.id);
    return result;
  });
}

/** Customer account ids never change (accounts are never removed), so they are cached. */
const accountIdCache = new Map<string, { savings: string; checking: string }>();
const ACCOUNT_ID_CACHE_MAX = 50_000;

async function ownAccountIds(db: DB, userId: string): Promise<{ savings: string; checking: string }> {
  const cached = accountIdCache.get(userId);
  if (cached) return cached;
  const own = await ownAccounts(db, userId);
  const ids = { savings: own.savings.id, checking: own.checking.id };
  if (accountIdCache.size >= ACCOUNT_ID_CACHE_MAX) accountIdCache.clear();
  accountIdCache.set(userId, ids);
  return ids;
}

// ---------------------------------------------------------------- customer: between own accounts

export async function internalTransfer(app: FastifyInstance, user: User, body: unknown, ticket: IdempotencyTicket): Promise<IdempotentAnswer> {
  const input = ZInternalTransferRequest.parse(body);
  const ids = await ownAccountIds(app.db, user.id);
  const from = ids[input.from];
  const to = ids[input.to];
  // The balance check happens where it counts: under the account locks, in the writer's batch.
  return ledgerWriter(app.db).submit({
    entry: {
      kind: 'internal',
      description: `Transfer from ${input.from} to ${input.to}`,
      authorId: user.id,
      postings: [
        { accountId: from, amountCents: -input.amount },
        { accountId: to, amountCents: input.amount },
      ],
    },
    answer: (posted) => ({ status: 201, body: { data: lineOf(posted, from, input.from), message: 'Transfer Successful' } }),
    idempotency: ticket,
  });
}

// ---------------------------------------------------------------- customer: to another account (code step)

function maskEmail(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}${'*'.repeat(Math.max(1, Math.min(name.length - 1, 6)))}@${domain}`;
}

function assertCanSend(user: User): void {
  if (user.is_blocked) throw forbidden(BLOCKED_MESSAGE);
}

const lastDigits = (value: string) => value.replace(/\s+/g, '').slice(-4);

interface CodeStep {
  user: User;
  binding: string;
  amountCents: number;
  payee: string;
  summary: string;
}

async function sendTransferCode(app: FastifyInstance, step: CodeStep, save: SaveAnswer): Promise<IdempotentAnswer> {
  const code = await issueCode(app.db, {
    userId: step.user.id,
    purpose: 'transfer',
    binding: step.binding,
    ttlMs: TRANSFER_CODE_TTL_MS,
    payload: { amountCents: step.amountCents, payee: step.payee },
  });
  await app.mailer.send(
    plainMail(
      { bankName: app.config.bankName, publicUrl: app.config.publicUrl },
      step.user.email,
      `your IMS code ${code}`,
      `Hello ${step.user.first_name},\n\nYour IMS code is ${code}.\n\nIt authorizes only this transfer: ${step.summary}.\n` +
        `It is valid for 5 minutes and for 5 attempts, and it is free. If you did not ask for it, do not share it and contact support.`,
    ),
  );
  const answer: IdempotentAnswer = {
    status: 200,
    body: {
      data: {
        step: 'code',
        expiresAt: new Date(Date.now() + TRANSFER_CODE_TTL_MS).toISOString(),
        sentTo: maskEmail(step.user.email),
        amount: step.amountCents / 100,
        payee: step.payee,
      },
      message: `We emailed your IMS code to ${maskEmail(step.user.email)}. It is free and works only for this transfer.`,
    },
  };
  await app.db.transaction().execute((trx) => save(trx, answer));
  return answer;
}

const CODE_MESSAGES = {
  missing: 'No IMS code is waiting for this transfer. Please request a new code.',
  expired: 'This IMS code has expired. Please request a new code.',
  wrong: 'The IMS code is not correct.',
  exhausted: 'Too many wrong IMS codes. Please request a new code.',
};

export async function transfer(app: FastifyInstance, user: User, body: unknown, save: SaveAnswer, ticket: IdempotencyTicket): Promise<IdempotentAnswer> {
  assertCanSend(user);
  const input = ZTransferRequest.parse(body);
  const own = await ownAccounts(app.db, user.id);
  if (input.from !== undefined && input.from !== own.number) throw forbidden('You can only send money from your own account.');
  if (input.accountNumber === own.number)
    throw badRequest('You cannot transfer to the same account', { accountNumber: 'You cannot transfer to the same account' });
  const source = own[input.accountType];
  if (source.balance < input.amount) throw new AppError('insufficient_funds', 'Insufficient funds');

  const payee = await app.db
    .selectFrom('ledger_accounts as a')
    .innerJoin('users as u', 'u.id', 'a.owner_id')
    .select(['a.id', 'u.first_name', 'u.last_name', 'u.closed_at'])
    .where('a.number', '=', input.accountNumber)
    .where('a.kind', '=', 'checking')
    .executeTakeFirst();
  if (payee?.closed_at) throw badRequest('This account is closed and cannot receive transfers.');
  if (!payee && (!input.routingNumber || !input.bankName)) {
    throw badRequest('Please fill all fields', {
      ...(input.routingNumber ? {} : { routingNumber: 'Routing number is required for another bank' }),
      ...(input.bankName ? {} : { bankName: 'Bank name is required for another bank' }),
    });
  }
  const payeeFields = { accountNumber: input.accountNumber, routingNumber: input.routingNumber ?? null, bankName: input.bankName ?? null, to: input.to };
  const binding = sha256(JSON.stringify({ kind: 'transfer', from: source.id, amount: input.amount, payee: payeeFields }));
  const payeeLabel = `${input.to} (account ending ${lastDigits(input.accountNumber)}${input.bankName ? `, ${input.bankName}` : ''})`;

  if (input.paymentPin === undefined) {
    return sendTransferCode(
      app,
      {
        user,
        binding,
        amountCents: input.amount,
        payee: payeeLabel,
        summary: `${formatCents(input.amount)} from your ${input.accountType} account to ${payeeLabel}`,
      },
      save,
    );
  }
  await consumeCode(app.db, { userId: user.id, purpose: 'transfer', binding, code: input.paymentPin, messages: CODE_MESSAGES });

  const senderName = fullName(user);
  const description = input.description ?? `Transfer to ${input.to}`;
  const creditAccountId = payee ? payee.id : await bankAccountId(app.db, 'external_clearing');
  return ledgerWriter(app.db).submit({
    idempotency: ticket,
    entry: {
      kind: 'transfer',
      description,
      authorId: user.id,
      details: payee
        ? { payee: { ...payeeFields, internal: true } }
        : { beneficiary: { name: input.to, accountNumber: input.accountNumber, routingNumber: input.routingNumber ?? null, bankName: input.bankName ?? null } },
      postings: [
        { accountId: source.id, amountCents: -input.amount, memo: description, counterparty: input.to },
        payee
          ? {
              accountId: creditAccountId,
              amountCents: input.amount,
              memo: `Transfer from ${senderName}${input.description ? `: ${input.description}` : ''}`,
              counterparty: senderName,
            }
          : { accountId: creditAccountId, amountCents: input.amount, memo: `Outgoing to ${input.to}`, counterparty: senderName },
      ],
    },
    answer: (posted) => ({ status: 201, body: { data: lineOf(posted, source.id, input.accountType), message: 'Transfer Successful' } }),
  });
}

export async function wireTransfer(app: FastifyInstance, user: User, body: unknown, save: SaveAnswer, ticket: IdempotencyTicket): Promise<IdempotentAnswer> {
  assertCanSend(user);
  const input = ZWireTransferRequest.parse(body);
  const own = await ownAccounts(app.db, user.id);
  const beneficiaryAccount = input.beneficiaryAccount.replace(/[\s-]+/g, '').toUpperCase();
  if (beneficiaryAccount === own.number)
    throw badRequest('You cannot transfer to the same account', { beneficiaryAccount: 'You cannot transfer to the same account' });
  if (bicCountry(input.swiftCode) !== input.country) {
    throw badRequest('The SWIFT/BIC code belongs to a bank in another country than the one chosen', {
      swiftCode: 'SWIFT/BIC country differs from the chosen country',
    });
  }
  const source = own[input.account];
  if (source.balance < input.amount) throw new AppError('insufficient_funds', 'Insufficient funds');
  const countryName = wireCountries().find((country) => country.code === input.country)?.name ?? input.country;
  const beneficiary = {
    name: input.beneficiaryName,
    account: beneficiaryAccount,
    bankName: input.bankName,
    country: input.country,
    swiftCode: input.swiftCode,
    accountType: input.accountType,
  };
  const binding = sha256(JSON.stringify({ kind: 'wire', from: source.id, amount: input.amount, payee: beneficiary }));
  const payeeLabel = `${input.beneficiaryName} (${input.bankName}, ${countryName}, account ending ${lastDigits(beneficiaryAccount)})`;
  if (input.paymentPin === undefined) {
    return sendTransferCode(
      app,
      {
        user,
        binding,
        amountCents: input.amount,
        payee: payeeLabel,
        summary: `wire of ${formatCents(input.amount)} from your ${input.account} account to ${payeeLabel}`,
      },
      save,
    );
  }
  await consumeCode(app.db, { userId: user.id, purpose: 'transfer', binding, code: input.paymentPin, messages: CODE_MESSAGES });
  const description = input.description ?? `Wire to ${input.beneficiaryName}`;
  const clearing = await bankAccountId(app.db, 'external_clearing');
  return ledgerWriter(app.db).submit({
    idempotency: ticket,
    entry: {
      kind: 'wire',
      description,
      authorId: user.id,
      details: { beneficiary },
      postings: [
        { accountId: source.id, amountCents: -input.amount, memo: description, counterparty: input.beneficiaryName },
        { accountId: clearing, amountCents: input.amount, memo: `Outgoing wire to ${input.beneficiaryName}`, counterparty: fullName(user) },
      ],
    },
    answer: (posted) => ({ status: 201, body: { data: lineOf(posted, source.id, input.account), message: 'Transfer Successful' } }),
  });
}

// ---------------------------------------------------------------- staff

async function customerById(db: DB, userId: string): Promise<User> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user || user.is_admin) throw notFound('Customer not found');
  return user;
}

export async function adminPostTransaction(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: string,
  body: unknown,
  save: SaveAnswer,
): Promise<IdempotentAnswer> {
  const input = ZAdminTransactionRequest.parse(body);
  const customer = await customerById(app.db, userId);
  const own = await ownAccounts(app.db, customer.id);
  const account = own[input.account];
  const operations = await bankAccountId(app.db, 'bank_operations');
  const signed = input.transactionType === 'credit' ? input.amount : -input.amount;
  const staff = request.user;
  assert(staff, 'staff signed in');
  return postAndAnswer(
    app.db,
    save,
    {
      kind: 'adjustment',
      description: input.description,
      valueDate: input.date,
      authorId: staff.id,
      details: { reason: input.reason },
      postings: [
        { accountId: account.id, amountCents: signed, counterparty: 'Bank adjustment' },
        { accountId: operations, amountCents: -signed, counterparty: fullName(customer) },
      ],
    },
    async (posted, trx) => {
      const line = lineOf(posted, account.id, input.account);
      await audit(trx, request, {
        action: 'transaction.create',
        targetUserId: customer.id,
        targetType: 'journal_entry',
        targetId: posted.id,
        before: { account: input.account, balance: account.balance / 100 },
        after: {
          account: input.account,
          balance: line.balanceAfter,
          amount: input.amount / 100,
          transactionType: input.transactionType,
          valueDate: input.date,
          description: input.description,
        },
        reason: input.reason,
      });
      return { status: 201, body: { data: line, message: 'Transaction added successfully' } };
    },
  );
}

/** Finds an entry by its id or by the id of one of its postings (the list's _id). */
export async function findEntry(db: DB, id: string) {
  const byPosting = await db.selectFrom('postings').select('entry_id').where('id', '=', id).executeTakeFirst();
  const entryId = byPosting?.entry_id ?? id;
  const entry = await db.selectFrom('journal_entries').selectAll().where('id', '=', entryId).executeTakeFirst();
  if (!entry) throw notFound('Transaction not found');
  return entry;
}

const isUniqueViolation = (error: unknown, constraint: string) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505' && (error as { constraint?: string }).constraint === constraint;

export async function adminReverse(app: FastifyInstance, request: FastifyRequest, id: string, reason: string, save: SaveAnswer): Promise<IdempotentAnswer> {
  const entry = await findEntry(app.db, id);
  if (entry.kind === 'reversal') throw badRequest('A reversal cannot be reversed. Add a new transaction instead.');
  const already = await app.db.selectFrom('journal_entries').select('id').where('reversal_of', '=', entry.id).executeTakeFirst();
  if (already) throw conflict('This transaction has already been reversed.');
  const lines = await app.db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .select(['p.account_id', 'p.amount', 'p.memo', 'a.owner_id'])
    .where('p.entry_id', '=', entry.id)
    .execute();
  const staff = request.user;
  assert(staff, 'staff signed in');
  const customers = [...new Set(lines.map((line) => line.owner_id).filter((owner): owner is string => owner !== null))];
  try {
    return await postAndAnswer(
      app.db,
      save,
      {
        kind: 'reversal',
        description: `Reversal: ${entry.description}`,
        authorId: staff.id,
        reversalOf: entry.id,
        details: { reason },
        postings: lines.map((line) => ({
          accountId: line.account_id,
          amountCents: -line.amount,
          memo: `Reversal: ${line.memo ?? entry.description}`,
          counterparty: 'Bank adjustment',
        })),
      },
      async (posted, trx) => {
        await audit(trx, request, {
          action: 'transaction.reverse',
          targetUserId: customers[0] ?? null,
          targetType: 'journal_entry',
          targetId: entry.id,
          before: { entry: entry.id, kind: entry.kind, amount: entry.amount / 100, status: 'completed' },
          after: { entry: entry.id, status: 'reversed', reversal: posted.id },
          reason,
        });
        return { status: 200, body: { data: { reversedEntryId: entry.id, reversalEntryId: posted.id }, message: 'Transaction reversed' } };
      },
    );
  } catch (error) {
    if (isUniqueViolation(error, 'journal_entries_reversal_of_key')) throw conflict('This transaction has already been reversed.');
    throw error;
  }
}

export async function adminUpdateDescription(app: FastifyInstance, request: FastifyRequest, id: string, description: string, reason: string | undefined) {
  const entry = await findEntry(app.db, id);
  const staff = request.user;
  assert(staff, 'staff signed in');
  await app.db.transaction().execute(async (trx) => {
    const previous = await trx
      .selectFrom('entry_notes')
      .select('description')
      .where('entry_id', '=', entry.id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    await trx.insertInto('entry_notes').values({ entry_id: entry.id, description, author_id: staff.id }).execute();
    const owner = await trx
      .selectFrom('postings as p')
      .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
      .select('a.owner_id')
      .where('p.entry_id', '=', entry.id)
      .where('a.owner_id', 'is not', null)
      .executeTakeFirst();
    await audit(trx, request, {
      action: 'transaction.describe',
      targetUserId: owner?.owner_id ?? null,
      targetType: 'journal_entry',
      targetId: entry.id,
      before: { description: previous?.description ?? entry.description },
      after: { description },
      reason: reason ?? null,
    });
  });
  return entryLines(app.db, entry.id, null);
}

export async function adminUpdateAccount(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: string,
  body: unknown,
  save: SaveAnswer,
): Promise<IdempotentAnswer> {
  const input: z.output<typeof ZAdminAccountUpdate> = ZAdminAccountUpdate.parse(body as AdminAccountUpdate);
  const customer = await customerById(app.db, userId);
  const own = await ownAccounts(app.db, customer.id);
  if (input.number !== own.number) {
    if (!isValidAccountNumber(input.number))
      throw badRequest('Account number must be 10 digits with a valid check digit', { number: 'Not a valid account number' });
    const taken = await app.db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('number', '=', input.number)
      .where('owner_id', '!=', customer.id)
      .executeTakeFirst();
    if (taken) throw conflict('This account number is already in use.');
  }
  const staff = request.user;
  assert(staff, 'staff signed in');
  const operations = await bankAccountId(app.db, 'bank_operations');
  try {
    return await app.db.transaction().execute(async (trx) => {
      // Lock both accounts (id order) and compute the corrections from the balances as they are now.
      const locked = await trx
        .selectFrom('ledger_accounts')
        .select(['id', 'kind', 'balance'])
        .where('id', 'in', [own.savings.id, own.checking.id].sort())
        .orderBy('id')
        .forUpdate()
        .execute();
      const before = {
        number: own.number,
        savings: (locked.find((row) => row.kind === 'savings')?.balance ?? 0) / 100,
        checking: (locked.find((row) => row.kind === 'checking')?.balance ?? 0) / 100,
      };
      const postings = [] as Array<{ accountId: string; amountCents: number; counterparty: string }>;
      let total = 0;
      for (const row of locked) {
        const target = row.kind === 'savings' ? input.savings : input.checking;
        const difference = target - row.balance;
        if (difference !== 0) {
          postings.push({ accountId: row.id, amountCents: difference, counterparty: 'Bank adjustment' });
          total += difference;
        }
      }
      let entryId: string | null = null;
      if (postings.length > 0) {
        if (total !== 0) postings.push({ accountId: operations, amountCents: -total, counterparty: fullName(customer) });
        const [posted] = await postEntries(trx, [
          { kind: 'adjustment', description: 'Balance correction', authorId: staff.id, details: { reason: input.reason }, postings },
        ]);
        entryId = posted?.id ?? null;
      }
      if (input.number !== own.number) {
        await trx.updateTable('ledger_accounts').set({ number: input.number }).where('owner_id', '=', customer.id).execute();
      }
      const after = { number: input.number, savings: input.savings / 100, checking: input.checking / 100 };
      await audit(trx, request, {
        action: 'account.update',
        targetUserId: customer.id,
        targetType: 'ledger_account',
        targetId: own.checking.id,
        before,
        after,
        reason: input.reason,
      });
      const answer: IdempotentAnswer = { status: 200, body: { data: { account: after, entryId }, message: 'Account balance successfully' } };
      await save(trx, answer, entryId);
      return answer;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'ledger_accounts_number_kind_key')) throw conflict('This account number is already in use.');
    throw error;
  }
}
