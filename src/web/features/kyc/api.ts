import { queryOptions } from '@tanstack/react-query';
import type { KycSubmissionDto } from '../../../shared/contracts/kyc';
import type { Paginated } from '../../../shared/contracts/common';
import type { UserDto } from '../../../shared/contracts/user';
import { api } from '../../lib/api';
import { rememberUser } from '../../lib/query';

export const KYC_QUEUE_STATUSES = ['pending', 'verified', 'failed', 'all'] as const;
export type KycQueueStatus = (typeof KYC_QUEUE_STATUSES)[number];

export const kycKeys = {
  all: ['kyc'] as const,
  queue: (status: KycQueueStatus, page: number) => [...kycKeys.all, 'queue', status, page] as const,
  customer: (userId: string) => [...kycKeys.all, 'customer', userId] as const,
};

/** The customer's documents, as one multipart form; the answer is the updated user. */
export async function submitKyc(form: FormData): Promise<{ user: UserDto; message: string | undefined }> {
  const answer = await api.post<UserDto>('/user/verification', form);
  rememberUser(answer.data);
  return { user: answer.data, message: answer.message };
}

export const kycQueueQuery = (status: KycQueueStatus, page: number) =>
  queryOptions({
    queryKey: kycKeys.queue(status, page),
    queryFn: async () => (await api.get<Paginated<KycSubmissionDto>>(`/admin/kyc?status=${status}&page=${page}`)).data,
  });

export const kycCustomerQuery = (userId: string) =>
  queryOptions({
    queryKey: kycKeys.customer(userId),
    queryFn: async () =>
      (await api.get<{ verificationStatus: UserDto['verificationStatus']; submissions: KycSubmissionDto[] }>(`/admin/kyc/users/${encodeURIComponent(userId)}`))
        .data,
  });

export async function approveKyc(submissionId: string): Promise<string> {
  return (await api.post<unknown>(`/admin/kyc/${encodeURIComponent(submissionId)}/approve`, {})).message ?? 'Saved';
}

export async function rejectKyc(submissionId: string, reason: string): Promise<string> {
  return (await api.post<unknown>(`/admin/kyc/${encodeURIComponent(submissionId)}/reject`, { reason })).message ?? 'Saved';
}
