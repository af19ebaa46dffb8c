import type { UserDto } from '../../shared/contracts/user';
import { storeUser } from './api';
import { queryClient } from './query';

/** The signed-in user changed: every view of it (header avatar included) shows the new one. */
export function rememberUpdatedUser(user: UserDto): void {
  queryClient.setQueryData(['me'], user);
  storeUser(user);
}
