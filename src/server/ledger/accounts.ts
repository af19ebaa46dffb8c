import { randomInt } from 'node:crypto';
import type { DB } from '../db/database';
import type { LedgerAccountKind } from '../db/schema';

/** Luhn check digit over the given digits, as payment card and many account numbers use. */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidAccountNumber(number: string): boolean {
  return /^[1-9][0-9]{9}$/.test(number) && luhnCheckDigit(number.slice(0, 9)) === Number(number[9]);
}

export function generateAccountNumber(): string {
  const body = String(randomInt(1, 10)) + String(randomInt(0, 100_000_000)).padStart(8, '0');
  return body + String(luhnCheckDigit(body));
}

export const BANK_ACCOUNTS: Array<{ kind: LedgerAccountKind; name: string }> = [
  { kind: 'bank_cash', name: 'Cash' },
  { kind: 'bank_operations', name: 'Operations adjustments' },
  { kind: 'external_clearing', name: 'External clearing' },
  { kind: 'loans_receivable', name: 'Loans receivable' },
  { kind: 'interest_income', name: 'Interest income' },
];

/** The bank's own accounts may go negative: they mirror money that entered or left the books. */
export async function ensureBankAccounts(db: DB): Promise<void> {
  for (const account of BANK_ACCOUNTS) {
    await db
      .insertInto('ledger_accounts')
      .values({ kind: account.kind, name: account.name, allow_negative: true })
      .onConflict((conflict) => conflict.column('kind').where('owner_id', 'is', null).doNothing())
      .execute();
  }
}

/** Opens the customer's savings and checking accounts under one new account number. */
export async function openCustomerAccounts(db: DB, userId: string): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const number = generateAccountNumber();
    const taken = await db.selectFrom('ledger_accounts').select('id').where('number', '=', number).executeTakeFirst();
    if (taken) continue;
    await db
      .insertInto('ledger_accounts')
      .values([
        { number, owner_id: userId, kind: 'savings', name: 'Savings' },
        { number, owner_id: userId, kind: 'checking', name: 'Checking' },
      ])
      .execute();
    return number;
  }
  throw new Error('Could not allocate a unique account number');
}

export interface AccountSummary {
  number: string;
  savingsCents: number;
  checkingCents: number;
}

export async function getAccountSummary(db: DB, userId: string): Promise<AccountSummary | null> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['number', 'kind', 'balance'])
    .where('owner_id', '=', userId)
    .where('kind', 'in', ['savings', 'checking'])
    .execute();
  if (rows.length === 0) return null;
  return {
    number: rows[0]?.number ?? '',
    savingsCents: rows.find((row) => row.kind === 'savings')?.balance ?? 0,
    checkingCents: rows.find((row) => row.kind === 'checking')?.balance ?? 0,
  };
}

export interface CustomerAccount {
  id: string;
  kind: LedgerAccountKind;
  number: string | null;
  balance: number;
}

/** Locks a customer's accounts (in id order, as every writer does) to close them: nothing posts meanwhile. */
export function lockCustomerAccounts(trx: DB, userId: string): Promise<CustomerAccount[]> {
  return trx.selectFrom('ledger_accounts').select(['id', 'kind', 'number', 'balance']).where('owner_id', '=', userId).orderBy('id').forUpdate().execute();
}

/** True once any posting touched one of the customer's accounts: such a customer is closed, never deleted. */
export async function hasLedgerHistory(db: DB, userId: string): Promise<boolean> {
  const found = await db
    .selectFrom('postings as p')
    .innerJoin('ledger_accounts as a', 'a.id', 'p.account_id')
    .select('p.id')
    .where('a.owner_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/** Deletes a customer's accounts; only possible while no posting refers to them (the database refuses otherwise, 23503: migration 64). */
export async function deleteCustomerAccounts(trx: DB, userId: string): Promise<void> {
  await trx.deleteFrom('ledger_accounts').where('owner_id', '=', userId).execute();
}

/** The customer an account number belongs to, if any. */
export async function accountOwner(db: DB, number: string): Promise<string | null> {
  const account = await db.selectFrom('ledger_accounts').select('owner_id').where('number', '=', number).where('owner_id', 'is not', null).executeTakeFirst();
  return account?.owner_id ?? null;
}
