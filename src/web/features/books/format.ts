import type { AccountKindName } from '../../../shared/contracts/journal';
import { ENTRY_KIND_LABELS, type EntryKindName } from '../../../shared/contracts/transactions';
import { formatCents } from '../../lib/format';

/** How the back office names an entry kind. */
export const entryKindLabel = (kind: EntryKindName) => (kind === 'internal' ? 'Between own accounts' : ENTRY_KIND_LABELS[kind]);

/** Whose account it is: the bank's, or a customer's. */
export const isBankAccount = (kind: AccountKindName) => kind !== 'savings' && kind !== 'checking';

/** A balance or a figure that may be below zero: −$934.15 with the real minus sign signedCents uses. */
export const balanceCents = (cents: number) => (cents < 0 ? `−${formatCents(-cents)}` : formatCents(cents));

/** +$25.00 when the posting raised the account's balance, −$25.00 when it lowered it (a real minus sign). */
export const signedCents = (cents: number) => `${cents > 0 ? '+' : cents < 0 ? '−' : ''}${formatCents(Math.abs(cents))}`;

/** An account as one line: "Cash (bank)", "Savings 0123456789 · Ada Lovelace". */
export function accountLine(kind: AccountKindName, name: string, number: string | null, ownerName: string | null): string {
  if (isBankAccount(kind)) return `${name} (bank)`;
  return [name, number, ownerName ? `· ${ownerName}` : null].filter(Boolean).join(' ');
}
