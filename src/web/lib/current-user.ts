import { useQuery } from '@tanstack/react-query';
import type { UserDto } from '../../shared/contracts/user';
import { currentUserQuery } from './query';

/** The signed-in user; the account and admin layouts load it before rendering. */
export function useCurrentUser(): UserDto {
  const { data } = useQuery(currentUserQuery);
  if (!data) throw new Error('useCurrentUser outside a signed-in layout');
  return data;
}
