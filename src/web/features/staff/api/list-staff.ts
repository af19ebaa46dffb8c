import { queryOptions } from '@tanstack/react-query';
import type { StaffList } from '../../../../shared/contracts/staff';
import { api } from '../../../lib/api';
import { staffKeys } from './keys';

/** GET /admin/staff: every staff member with role, access, second factor and last sign-in (admins only). */
export const staffListQuery = () =>
  queryOptions({
    queryKey: staffKeys.list(),
    queryFn: async () => (await api.get<StaffList>('/admin/staff')).data,
  });
