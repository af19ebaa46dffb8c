import { SEARCH_LENGTH_MAX } from '../../../shared/contracts/transactions';
import { isRealDate } from '../../../shared/dates';
import { choiceParam, listSearch, pageParam } from '../../lib/list-params';
import type { TransactionFilter } from './api';

/** The filters of a history list as the address and the filter form hold them ('' = no filter). */
export interface TransactionFilterValues {
  type: '' | 'credit' | 'debit';
  account: '' | 'savings' | 'checking';
  /** Value dates, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Words in the description or the counterparty. */
  q: string;
  /** Amount range in dollars, as typed. */
  amountMin: string;
  amountMax: string;
}

export const NO_FILTER: TransactionFilterValues = { type: '', account: '', from: '', to: '', q: '', amountMin: '', amountMax: '' };

// A hand-edited address with a value the API refuses is read as "no filter" rather than an error page.
const realDate = (value: string | null) => (value && isRealDate(value) ? value : '');
const words = (value: string | null) => (value ?? '').trim().slice(0, SEARCH_LENGTH_MAX);
const dollars = (value: string | null) => (value && /^\d{1,12}(\.\d{1,2})?$/.test(value) ? value : '');

export function readTransactionFilter(search: URLSearchParams): TransactionFilterValues & { page: number } {
  return {
    page: pageParam(search),
    type: choiceParam(search, 'type', ['', 'credit', 'debit'] as const, ''),
    account: choiceParam(search, 'account', ['', 'savings', 'checking'] as const, ''),
    from: realDate(search.get('from')),
    to: realDate(search.get('to')),
    q: words(search.get('q')),
    amountMin: dollars(search.get('amountMin')),
    amountMax: dollars(search.get('amountMax')),
  };
}

/** ?q=...&type=credit&from=...&page=2, in that order, without what is empty or page 1. */
export const transactionFilterSearch = ({ q, amountMin, amountMax, type, account, from, to, page }: TransactionFilterValues & { page: number }) =>
  listSearch({ q, amountMin, amountMax, type, account, from, to, page });

export const toTransactionFilter = (values: TransactionFilterValues & { page: number }, pageSize: number): TransactionFilter => ({ ...values, pageSize });
