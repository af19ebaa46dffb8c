// The signed-in areas' query cache, and what the public pages share with it (sign-in stores the
// user it answers). No React here: useCurrentUser is in current-user.ts, so a sign-in page does not
// load TanStack Query's React bindings.
import { QueryClient, queryOptions, type FetchQueryOptions, type QueryKey } from '@tanstack/react-query';
import type { UserDto } from '../../shared/contracts/user';
import { api, storeUser } from './api';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 10_000, retry: false, refetchOnWindowFocus: false } },
});

/** The session's own data: the signed-in user. Each feature has its own key factory in its api.ts. */
export const sessionKeys = { me: ['me'] as const };

export const currentUserQuery = queryOptions({
  queryKey: sessionKeys.me,
  queryFn: async () => (await api.get<UserDto>('/user/me')).data,
  staleTime: 5_000,
});

/** The signed-in user changed (sign-in, verification, profile): every view of it shows the new one. */
export function rememberUser(user: UserDto): void {
  queryClient.setQueryData(sessionKeys.me, user);
  storeUser(user);
}

/**
 * A route's clientLoader: fetches what the page shows into the cache before it renders (the page
 * then reads the same queries). It waits for the signed-in user first (the layout's loader asks
 * for the same query, so it is fetched once): without a session the layout redirects, and the
 * page's own calls are not made. A failed call is not thrown: the page shows its error in place.
 */
export async function prefetch(...queries: Array<{ queryKey: QueryKey }>): Promise<null> {
  try {
    await queryClient.fetchQuery(currentUserQuery);
  } catch {
    return null;
  }
  await Promise.all(queries.map((query) => queryClient.prefetchQuery(query as FetchQueryOptions)));
  return null;
}
