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
}

export const NO_FILTER: TransactionFilterValues = { type: '', account: '', from: '', to: '' };

// A hand-edited address with a value the API refuses is read as "no filter" rather than an error page.
const realDate = (value: string | null) => (value && isRealDate(value) ? value : '');

export function readTransactionFilter(search: URLSearchParams): TransactionFilterValues & { page: number } {
  return {
    page: pageParam(search),
    type: choiceParam(search, 'type', ['', 'credit', 'debit'] as const, ''),
    account: choiceParam(search, 'account', ['', 'savings', 'checking'] as const, ''),
    from: realDate(search.get('from')),
    to: realDate(search.get('to')),
  };
}

/** ?type=credit&from=...&page=2, in that order, without what is empty or page 1. */
export const transactionFilterSearch = ({ type, account, from, to, page }: TransactionFilterValues & { page: number }) =>
  listSearch({ type, account, from, to, page });

export const toTransactionFilter = (values: TransactionFilterValues & { page: number }, pageSize: number): TransactionFilter => ({ ...values, pageSize });
