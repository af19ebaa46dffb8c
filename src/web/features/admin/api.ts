import { queryOptions } from '@tanstack/react-query';
import type {
  AdminDashboard,
  AdminDeleteResult,
  AdminLedgerOverview,
  AdminLedgerVerification,
  AdminUserDto,
  AdminUserList,
  AdminUserUpdate,
  AuditFilters,
  AuditList,
  UserSortField,
} from '../../../shared/contracts/admin';
import { api } from '../../lib/api';

export interface UserListParams {
  page: number;
  search: string;
  sort: UserSortField;
  order: 'asc' | 'desc';
}

function toQueryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const adminUsersQuery = (params: UserListParams) =>
  queryOptions({
    queryKey: ['admin', 'users', 'list', params],
    queryFn: async () => (await api.get<AdminUserList>(`/user/admin${toQueryString({ ...params, pageSize: 20 })}`)).data,
    placeholderData: (previous) => previous,
  });

/** Same key as the ledger pages' view of the customer, so one refresh updates both. */
export const adminUserQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'user', id],
    queryFn: async () => (await api.get<AdminUserDto>(`/user/admin/${encodeURIComponent(id)}`)).data,
  });

export async function updateAdminUser(id: string, body: AdminUserUpdate): Promise<{ user: AdminUserDto; message: string }> {
  const answer = await api.put<AdminUserDto>(`/user/admin/${encodeURIComponent(id)}`, body);
  return { user: answer.data, message: answer.message ?? 'User updated successfully' };
}

export async function deleteAdminUser(id: string): Promise<AdminDeleteResult> {
  return (await api.delete<AdminDeleteResult>(`/user/admin/${encodeURIComponent(id)}`)).data;
}

export const dashboardQuery = queryOptions({
  queryKey: ['admin', 'dashboard'],
  queryFn: async () => (await api.get<AdminDashboard>('/admin/dashboard')).data,
});

export const ledgerOverviewQuery = queryOptions({
  queryKey: ['admin', 'ledger'],
  queryFn: async () => (await api.get<AdminLedgerOverview>('/admin/ledger')).data,
});

/** Recomputes the hash chain and every balance on the server (it reads every entry). */
export async function verifyLedgerNow(): Promise<AdminLedgerVerification> {
  return (await api.post<AdminLedgerVerification>('/admin/ledger/verify', {})).data;
}

export interface AuditParams {
  page: number;
  actorId: string;
  customer: string;
  action: string;
}

export const auditQuery = (params: AuditParams) =>
  queryOptions({
    queryKey: ['admin', 'audit', params],
    queryFn: async () => (await api.get<AuditList>(`/admin/audit${toQueryString({ ...params, pageSize: 25 })}`)).data,
    placeholderData: (previous) => previous,
  });

export const auditFiltersQuery = queryOptions({
  queryKey: ['admin', 'audit', 'filters'],
  queryFn: async () => (await api.get<AuditFilters>('/admin/audit/filters')).data,
});
