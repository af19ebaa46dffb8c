import type { ApprovalStatus } from '../../../../shared/contracts/approvals';

export const approvalKeys = {
  all: ['approvals'] as const,
  list: (status: ApprovalStatus, page: number) => [...approvalKeys.all, 'list', status, page] as const,
  count: () => [...approvalKeys.all, 'count'] as const,
};
