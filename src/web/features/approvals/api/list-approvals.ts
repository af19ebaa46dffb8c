import { queryOptions } from '@tanstack/react-query';
import type { ApprovalDto, ApprovalStatus } from '../../../../shared/contracts/approvals';
import type { Paginated } from '../../../../shared/contracts/common';
import { api } from '../../../lib/api';
import { approvalKeys } from './keys';

/** GET /admin/approvals?status=: the four-eyes queue, newest first (ADR 023). */
export const approvalsQuery = (status: ApprovalStatus, page: number) =>
  queryOptions({
    queryKey: approvalKeys.list(status, page),
    queryFn: async () => (await api.get<Paginated<ApprovalDto>>(`/admin/approvals?status=${status}&page=${page}`)).data,
  });
