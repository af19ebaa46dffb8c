import { ENTRY_KIND_LABELS, type TransactionDto } from '../../../shared/contracts/transactions';
import { formatDollars } from '../../lib/format';

/** What kind of entry a line belongs to, as customers and staff read it. */
export const kindLabel = (line: Pick<TransactionDto, 'kind'>) => ENTRY_KIND_LABELS[line.kind] ?? line.kind;

/** +$25.00 for a credit, −$25.00 for a debit (a real minus sign). */
export const signedAmount = (line: Pick<TransactionDto, 'amount' | 'transactionType'>) =>
  `${line.transactionType === 'credit' ? '+' : '−'}${formatDollars(line.amount)}`;
