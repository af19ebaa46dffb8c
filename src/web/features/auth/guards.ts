import { redirect } from 'react-router';
import type { UserDto } from '../../../shared/contracts/user';
import { ApiError } from '../../lib/api';
import { currentUserQuery, queryClient } from '../../lib/query';
import { signInPathFor } from '../../lib/return-to';

/**
 * Loads the signed-in user for a layout; a missing session goes to the sign-in page of the area of
 * `request`'s page (the staff login for the back office), which returns to that page afterwards.
 */
export async function loadSignedInUser(request: Request): Promise<UserDto> {
  try {
    return await queryClient.fetchQuery(currentUserQuery);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw redirect(signInPathFor(locationOf(request)));
    throw error;
  }
}

/** The path and query of a loader's request. */
export const locationOf = (request: Request): string => {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
};
