import { type ApprovalPending, awaitingApproval } from '../../../shared/contracts/approvals';
import { queryOptions } from '@tanstack/react-query';
import type {
  AdminDashboard,
  AdminDeleteResult,
  AdminLedgerOverview,
  AdminLedgerVerification,
  AdminUserDto,
  AdminUserList,
  AdminUserRow,
  AdminUserUpdate,
  AuditFilters,
  AuditList,
  UserSortField,
} from '../../../shared/contracts/admin';
import type { PaymentHoldDto } from '../../../shared/contracts/payment-holds';
import type { SessionDto, SessionsEnded } from '../../../shared/contracts/sessions';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../../shared/limits';
import { api } from '../../lib/api';
import { listSearch } from '../../lib/list-params';

export interface UserListParams {
  page: number;
  search: string;
  sort: UserSortField;
  order: 'asc' | 'desc';
}

export interface AuditParams {
  page: number;
  actorId: string;
  customer: string;
  action: string;
}

export const AUDIT_PAGE_SIZE = 25;

export const adminKeys = {
  all: ['admin'] as const,
  users: (params: UserListParams) => [...adminKeys.all, 'users', params] as const,
  customerOptions: () => [...adminKeys.all, 'customer-options'] as const,
  user: (id: string) => [...adminKeys.all, 'user', id] as const,
  userSessions: (id: string) => [...adminKeys.all, 'user', id, 'sessions'] as const,
  paymentHold: (id: string) => [...adminKeys.all, 'user', id, 'payment-hold'] as const,
  dashboard: () => [...adminKeys.all, 'dashboard'] as const,
  ledger: () => [...adminKeys.all, 'ledger'] as const,
  audit: (params: AuditParams) => [...adminKeys.all, 'audit', params] as const,
  auditFilters: () => [...adminKeys.all, 'audit-filters'] as const,
};

const query = (values: Record<string, string | number | undefined>) => {
  const text = listSearch(values, {}).toString();
  return text ? `?${text}` : '';
};

export const adminUsersQuery = (params: UserListParams) =>
  queryOptions({
    queryKey: adminKeys.users(params),
    queryFn: async () => (await api.get<AdminUserList>(`/user/admin${query({ ...params, pageSize: PAGE_SIZE_DEFAULT })}`)).data,
    placeholderData: (previous) => previous,
  });

/** The open customers a staff member can post to, by first name (the Add Transaction list). */
export const customerOptionsQuery = () =>
  queryOptions({
    queryKey: adminKeys.customerOptions(),
    queryFn: async () => {
      const answer = await api.get<AdminUserList>(`/user/admin${query({ pageSize: PAGE_SIZE_MAX, sort: 'firstName', order: 'asc' })}`);
      return answer.data.items.filter((user): user is AdminUserRow => !user.isAdmin && !user.closedAt);
    },
  });

export const adminUserQuery = (id: string) =>
  queryOptions({
    queryKey: adminKeys.user(id),
    queryFn: async () => (await api.get<AdminUserDto>(`/user/admin/${encodeURIComponent(id)}`)).data,
  });

/** Where a user is signed in (the back office's user page). */
export const adminUserSessionsQuery = (id: string) =>
  queryOptions({
    queryKey: adminKeys.userSessions(id),
    queryFn: async () => (await api.get<SessionDto[]>(`/user/admin/${encodeURIComponent(id)}/sessions`)).data,
  });

/** Ends one of a user's sessions (audited). */
export async function endUserSession(userId: string, sessionId: string): Promise<string | undefined> {
  return (await api.delete<SessionsEnded>(`/user/admin/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(sessionId)}`)).message;
}

/** Whether a customer's outgoing payments are held after wrong transfer codes (the user page). */
export const paymentHoldQuery = (id: string) =>
  queryOptions({
    queryKey: adminKeys.paymentHold(id),
    queryFn: async () => (await api.get<PaymentHoldDto>(`/user/admin/${encodeURIComponent(id)}/payment-hold`)).data,
  });

/** Releases a customer's held payments before the hold runs out, with a reason (audited). */
export async function releasePaymentHold(id: string, reason: string): Promise<string | undefined> {
  return (await api.post<PaymentHoldDto>(`/user/admin/${encodeURIComponent(id)}/payment-hold/release`, { reason })).message;
}

export async function updateAdminUser(id: string, body: AdminUserUpdate): Promise<string> {
  return (await api.put<AdminUserDto>(`/user/admin/${encodeURIComponent(id)}`, body)).message ?? 'User updated successfully';
}

/** Deleted or closed at once, or (a closure, with four eyes on) waiting for a second staff member: ADR 023. */
export async function deleteAdminUser(id: string): Promise<AdminDeleteResult | { outcome: 'pending'; message: string }> {
  const answer = await api.delete<AdminDeleteResult | ApprovalPending>(`/user/admin/${encodeURIComponent(id)}`);
  if ('approvalId' in answer.data) return { outcome: 'pending', message: answer.message ?? awaitingApproval('Closure requested') };
  return answer.data;
}

export const dashboardQuery = () =>
  queryOptions({
    queryKey: adminKeys.dashboard(),
    queryFn: async () => (await api.get<AdminDashboard>('/admin/dashboard')).data,
  });

export const ledgerOverviewQuery = () =>
  queryOptions({
    queryKey: adminKeys.ledger(),
    queryFn: async () => (await api.get<AdminLedgerOverview>('/admin/ledger')).data,
  });

/** Recomputes the hash chain and every balance on the server (it reads every entry). */
export async function verifyLedgerNow(): Promise<AdminLedgerVerification> {
  return (await api.post<AdminLedgerVerification>('/admin/ledger/verify', {})).data;
}

export const auditQuery = (params: AuditParams) =>
  queryOptions({
    queryKey: adminKeys.audit(params),
    queryFn: async () => (await api.get<AuditList>(`/admin/audit${query({ ...params, pageSize: AUDIT_PAGE_SIZE })}`)).data,
    placeholderData: (previous) => previous,
  });

export const auditFiltersQuery = () =>
  queryOptions({
    queryKey: adminKeys.auditFilters(),
    queryFn: async () => (await api.get<AuditFilters>('/admin/audit/filters')).data,
  });
