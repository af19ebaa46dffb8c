import { queryOptions } from '@tanstack/react-query';
import type { BeneficiaryDto } from '../../../../shared/contracts/beneficiaries';
import { api } from '../../../lib/api';
import { standingOrderKeys } from './keys';

/** GET /beneficiaries: the saved payees a standing order may pay. */
export const payeesQuery = () =>
  queryOptions({
    queryKey: standingOrderKeys.payees(),
    queryFn: async () => (await api.get<BeneficiaryDto[]>('/beneficiaries')).data,
  });
