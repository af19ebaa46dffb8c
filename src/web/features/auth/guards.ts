import { redirect } from 'react-router';
import type { UserDto } from '../../../shared/contracts/user';
import { ApiError } from '../../lib/api';
import { currentUserQuery, queryClient } from '../../lib/query';

/** Loads the signed-in user for a layout; a missing session goes to the sign-in page. */
export async function loadSignedInUser(signInPath: string): Promise<UserDto> {
  try {
    return await queryClient.fetchQuery(currentUserQuery);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw redirect(signInPath);
    throw error;
  }
}
