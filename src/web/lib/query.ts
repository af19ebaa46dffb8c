import { QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { UserDto } from '../../shared/contracts/user';
import { api } from './api';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 10_000, retry: false, refetchOnWindowFocus: false } },
});

export const currentUserQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async () => (await api.get<UserDto>('/user/me')).data,
});

/** The signed-in user; the account and admin layouts load it before rendering. */
export function useCurrentUser(): UserDto {
  const { data } = useQuery(currentUserQuery);
  if (!data) throw new Error('useCurrentUser outside a signed-in layout');
  return data;
}
