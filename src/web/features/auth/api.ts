import type { UserDto } from '../../../shared/contracts/user';
import { api, clearStoredUser, storeUser } from '../../lib/api';
import { queryClient } from '../../lib/query';
import { paths } from '../../paths';

export async function signIn(email: string, password: string, admin = false): Promise<UserDto> {
  const { data } = await api.post<{ token: string; user: UserDto }>(
    admin ? '/auth/admin/signin' : '/auth/signin',
    { email, password },
    { redirectOn401: false },
  );
  rememberUser(data.user);
  return data.user;
}

export function rememberUser(user: UserDto): void {
  storeUser(user);
  queryClient.setQueryData(['me'], user);
}

/** Where a user goes after signing in (spec section 4). */
export function homeFor(user: UserDto): string {
  if (user.isAdmin) return paths.adminDashboard;
  if (!user.isEmailConfirmed) return paths.emailVerification;
  return paths.accountHome;
}

export async function signOut(): Promise<void> {
  try {
    await api.post('/auth/signout', {}, { redirectOn401: false });
  } finally {
    clearStoredUser();
    queryClient.clear();
  }
}
