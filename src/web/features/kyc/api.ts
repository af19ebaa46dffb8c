import { queryOptions } from '@tanstack/react-query';
import type { KycSubmissionDto } from '../../../shared/contracts/kyc';
import type { UserDto } from '../../../shared/contracts/user';
import { api } from '../../lib/api';

export async function submitKyc(form: FormData): Promise<{ user: UserDto; message: string | undefined }> {
  const answer = await api.post<UserDto>('/user/verification', form);
  return { user: answer.data, message: answer.message };
}

export interface KycQueuePage {
  items: KycSubmissionDto[];
  page: number;
  pageSize: number;
  total: number;
}

export const kycQueueQuery = (status: string, page = 1) =>
  queryOptions({
    queryKey: ['admin', 'kyc', status, page],
    queryFn: async () => (await api.get<KycQueuePage>(`/admin/kyc?status=${encodeURIComponent(status)}&page=${page}`)).data,
  });

export const kycUserQuery = (userId: string) =>
  queryOptions({
    queryKey: ['admin', 'kyc', 'user', userId],
    queryFn: async () =>
      (await api.get<{ verificationStatus: UserDto['verificationStatus']; submissions: KycSubmissionDto[] }>(`/admin/kyc/users/${encodeURIComponent(userId)}`))
        .data,
  });

export async function decideKyc(submissionId: string, decision: 'approve' | 'reject', reason?: string): Promise<string> {
  const answer = await api.post<unknown>(`/admin/kyc/${encodeURIComponent(submissionId)}/${decision}`, decision === 'reject' ? { reason } : {});
  return answer.message ?? 'Saved';
}
