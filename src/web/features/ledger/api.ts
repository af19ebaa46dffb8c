import { queryOptions } from '@tanstack/react-query';
import type { AdminTransactionDto, AdminAccountUpdate, AdminTransactionRequest, TransactionDto, TransactionPage } from '../../../shared/contracts/transactions';
import type { AdminUserRow } from '../../../shared/contracts/admin';
import { api } from '../../lib/api';

export interface TransactionFilter {
  page?: number;
  pageSize?: number;
  account?: 'savings' | 'checking' | '';
  type?: 'debit' | 'credit' | '';
  from?: string;
  to?: string;
}

function queryString(filter: TransactionFilter): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const transactionsQuery = (filter: TransactionFilter = {}) =>
  queryOptions({
    queryKey: ['transactions', filter],
    queryFn: async () => (await api.get<TransactionPage>(`/transaction${queryString(filter)}`)).data,
  });

export const adminUserTransactionsQuery = (userId: string, filter: TransactionFilter = {}) =>
  queryOptions({
    queryKey: ['admin', 'transactions', userId, filter],
    queryFn: async () => (await api.get<TransactionPage<AdminTransactionDto>>(`/transaction/admin/${encodeURIComponent(userId)}${queryString(filter)}`)).data,
  });

/** The back office's journal: every line on every customer account, newest first, each naming its customer. */
export const adminJournalQuery = (filter: TransactionFilter = {}) =>
  queryOptions({
    queryKey: ['admin', 'transactions', 'journal', filter],
    queryFn: async () => (await api.get<TransactionPage<AdminTransactionDto>>(`/transaction/admin${queryString(filter)}`)).data,
  });

export async function addAdminTransaction(
  userId: string,
  body: AdminTransactionRequest,
  idempotencyKey: string,
): Promise<{ line: TransactionDto; message: string }> {
  const answer = await api.post<TransactionDto>(`/transaction/admin/${encodeURIComponent(userId)}`, body, { headers: { 'Idempotency-Key': idempotencyKey } });
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

export async function updateAccount(userId: string, body: AdminAccountUpdate, idempotencyKey: string): Promise<string> {
  const answer = await api.put<unknown>(`/user/admin/account/${encodeURIComponent(userId)}`, body, { headers: { 'Idempotency-Key': idempotencyKey } });
  return answer.message ?? 'Account balance successfully';
}

// Staff views of customers, from the back office's user calls.
export type StaffUserOption = Pick<AdminUserRow, '_id' | 'firstName' | 'lastName' | 'email' | 'accountNumber' | 'isAdmin' | 'closedAt'>;

export const staffCustomersQuery = () =>
  queryOptions({
    queryKey: ['admin', 'users', 'for-ledger'],
    queryFn: async () => {
      const answer = await api.get<{ items: StaffUserOption[] }>('/user/admin?pageSize=100&sort=firstName&order=asc');
      return answer.data.items.filter((user) => !user.isAdmin && !user.closedAt);
    },
  });

export interface StaffUser {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  account: { number: string; savings: number; checking: number };
}

export const staffUserQuery = (userId: string) =>
  queryOptions({
    queryKey: ['admin', 'user', userId],
    queryFn: async () => (await api.get<StaffUser>(`/user/admin/${encodeURIComponent(userId)}`)).data,
  });
