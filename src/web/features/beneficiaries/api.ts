import { queryOptions } from '@tanstack/react-query';
import type { BeneficiaryDto, BeneficiaryRequest } from '../../../shared/contracts/beneficiaries';
import { api } from '../../lib/api';

export const beneficiaryKeys = {
  all: ['beneficiaries'] as const,
  mine: () => [...beneficiaryKeys.all, 'mine'] as const,
};

export const beneficiariesQuery = () =>
  queryOptions({
    queryKey: beneficiaryKeys.mine(),
    queryFn: async () => (await api.get<BeneficiaryDto[]>('/beneficiaries')).data,
  });

export async function saveBeneficiary(body: BeneficiaryRequest): Promise<string | undefined> {
  return (await api.post<BeneficiaryDto>('/beneficiaries', body)).message;
}

export async function removeBeneficiary(id: string): Promise<string | undefined> {
  return (await api.delete<{ _id: string }>(`/beneficiaries/${encodeURIComponent(id)}`)).message;
}
