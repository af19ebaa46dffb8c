import type { ApprovalPending } from '../../../shared/contracts/approvals';
import { queryOptions } from '@tanstack/react-query';
import type {
  AdminAccountUpdate,
  AdminTransactionDto,
  AdminTransactionRequest,
  MonthlyTotals,
  TransactionDto,
  TransactionPage,
} from '../../../shared/contracts/transactions';
import { api } from '../../lib/api';

/** A filtered page of history lines (the API's query parameters; empty means no filter). */
export interface TransactionFilter {
  page?: number;
  pageSize?: number;
  account?: 'savings' | 'checking' | '';
  type?: 'debit' | 'credit' | '';
  from?: string;
  to?: string;
  /** Words in the description or the counterparty. */
  q?: string;
  /** Amount range in dollars, as typed ('' = none). */
  amountMin?: string;
  amountMax?: string;
}

export const ledgerKeys = {
  all: ['ledger'] as const,
  mine: (filter: TransactionFilter) => [...ledgerKeys.all, 'mine', filter] as const,
  customer: (userId: string, filter: TransactionFilter) => [...ledgerKeys.all, 'customer', userId, filter] as const,
  journal: (filter: TransactionFilter) => [...ledgerKeys.all, 'journal', filter] as const,
  monthly: (account: string) => [...ledgerKeys.all, 'monthly', account] as const,
};

function queryString(filter: TransactionFilter): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The signed-in customer's history, newest first. */
export const transactionsQuery = (filter: TransactionFilter = {}) =>
  queryOptions({
    queryKey: ledgerKeys.mine(filter),
    queryFn: async () => (await api.get<TransactionPage>(`/transaction${queryString(filter)}`)).data,
  });

/** Money in and out per month, the last 12 months (one account, or both without the moves between them). */
export const monthlyTotalsQuery = (account: 'savings' | 'checking' | '' = '') =>
  queryOptions({
    queryKey: ledgerKeys.monthly(account),
    queryFn: async () => (await api.get<MonthlyTotals>(`/transaction/monthly-totals${account ? `?account=${account}` : ''}`)).data,
  });

/** One customer's history as staff see it. */
export const customerTransactionsQuery = (userId: string, filter: TransactionFilter = {}) =>
  queryOptions({
    queryKey: ledgerKeys.customer(userId, filter),
    queryFn: async () => (await api.get<TransactionPage<AdminTransactionDto>>(`/transaction/admin/${encodeURIComponent(userId)}${queryString(filter)}`)).data,
  });

/** The back office's journal: every line on every customer account, newest first, each naming its customer. */
export const journalQuery = (filter: TransactionFilter = {}) =>
  queryOptions({
    queryKey: ledgerKeys.journal(filter),
    queryFn: async () => (await api.get<TransactionPage<AdminTransactionDto>>(`/transaction/admin${queryString(filter)}`)).data,
  });

export async function addAdminTransaction(
  userId: string,
  body: AdminTransactionRequest,
  idempotencyKey: string,
): Promise<{ line: TransactionDto | ApprovalPending; message: string }> {
  // With four eyes on (ADR 023) the answer is 202 with the pending approval; the message says so.
  const answer = await api.post<TransactionDto | ApprovalPending>(`/transaction/admin/${encodeURIComponent(userId)}`, body, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return { line: answer.data, message: answer.message ?? 'Transaction added successfully' };
}

export async function reverseTransaction(id: string, reason: string, idempotencyKey: string): Promise<string> {
  const answer = await api.delete<unknown>(`/transaction/admin/${encodeURIComponent(id)}`, {
    body: { reason },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return answer.message ?? 'Transaction reversed';
}

export async function updateTransactionDescription(id: string, description: string): Promise<string> {
  const answer = await api.put<unknown>(`/transaction/admin/${encodeURIComponent(id)}`, { description });
  return answer.message ?? 'Transaction updated';
}

/** Staff set a customer's balances: the server posts the differences as reasoned correction entries. */
export async function updateAccount(userId: string, body: AdminAccountUpdate, idempotencyKey: string): Promise<string> {
  const answer = await api.put<unknown>(`/user/admin/account/${encodeURIComponent(userId)}`, body, { headers: { 'Idempotency-Key': idempotencyKey } });
  return answer.message ?? 'Account balance successfully';
}
