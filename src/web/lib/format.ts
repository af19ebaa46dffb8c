import { ENTRY_KIND_LABELS, type TransactionDto } from '../../shared/contracts/transactions';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** USD in en-US format; a missing amount shows $0 as the specification asks. */
export const formatUsd = (dollars: number | null | undefined) =>
  dollars === null || dollars === undefined || !Number.isFinite(dollars) ? '$0' : money.format(dollars);

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const timeFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
export const formatValueDate = (date: string) => dateFormat.format(new Date(`${date}T00:00:00Z`));
export const formatBookedAt = (iso: string) => timeFormat.format(new Date(iso));

export const kindLabel = (line: Pick<TransactionDto, 'kind'>) => ENTRY_KIND_LABELS[line.kind] ?? line.kind;
export const signedAmount = (line: Pick<TransactionDto, 'amount' | 'transactionType'>) =>
  `${line.transactionType === 'credit' ? '+' : '−'}${formatUsd(line.amount)}`;
