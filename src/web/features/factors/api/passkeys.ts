import { queryOptions } from '@tanstack/react-query';
import type { PasskeyDto } from '../../../../shared/contracts/factors';
import { api } from '../../../lib/api';
import { factorKeys } from './keys';

/** GET /api/auth/passkeys: the user's passkeys, oldest first. */
export const passkeysQuery = () =>
  queryOptions({
    queryKey: factorKeys.passkeys(),
    queryFn: async () => (await api.get<PasskeyDto[]>('/auth/passkeys')).data,
  });
