import { redirect } from 'react-router';
import type { RouteName } from '../../shared/routes';
import { mayChangeUser, ROLES, roleMayUse, STAFF_PAGE_ROLES, type StaffPage, type StaffRole } from '../../shared/staff-roles';
import { useCurrentUser } from './current-user';
import { currentUserQuery, queryClient } from './query';
import { paths } from '../paths';

// What a staff member is offered (ADR 022): the same role groups the server's routes declare
// (src/shared/staff-roles.ts), so a screen never offers what the server would refuse with 403.

/** Every back-office page of the route manifest has its roles (a new page must choose them). */
type BackOfficePage = Exclude<Extract<RouteName, `admin${string}`>, 'adminLogin' | 'adminInvitation'>;
const everyPageHasRoles: Record<BackOfficePage, readonly StaffRole[]> = STAFF_PAGE_ROLES;
void everyPageHasRoles;

/** Whether the signed-in staff member's role is in `roles` (a ROLES group, or a page's roles). */
export function useStaffMay(): (roles: readonly StaffRole[]) => boolean {
  const user = useCurrentUser();
  return (roles) => roleMayUse(user.staffRole, roles);
}

/** Whether the signed-in staff member may change this user's account on the users pages (mayChangeUser: a staff account is an admin's). */
export function useMayChangeUser(): (user: { isAdmin: boolean }) => boolean {
  const me = useCurrentUser();
  return (user) => mayChangeUser(me.staffRole, user);
}

/** Whether the signed-in staff member may open `page`: links to other pages are shown only then. */
export function useMayOpen(): (page: StaffPage) => boolean {
  const may = useStaffMay();
  return (page) => may(STAFF_PAGE_ROLES[page]);
}

/**
 * A page's loader guard: a role that may not read the page is sent to the dashboard rather than
 * shown a 403 (an old bookmark, a typed address). Call it before prefetching the page's queries.
 */
export async function requireStaffPage(page: StaffPage): Promise<void> {
  // No session, no second factor yet, or a customer's session: the admin layout's loader sends
  // them to the staff login (with the page to come back to); only a staff member's role is checked here.
  const user = await queryClient.fetchQuery(currentUserQuery).catch(() => null);
  if (user?.isAdmin && !roleMayUse(user.staffRole, STAFF_PAGE_ROLES[page])) throw redirect(paths.adminDashboard);
}

export { ROLES };

/** A loader's check (outside React): whether the signed-in staff member's role is in `roles`. */
export async function staffMay(roles: readonly StaffRole[]): Promise<boolean> {
  const user = await queryClient.fetchQuery(currentUserQuery).catch(() => null);
  return roleMayUse(user?.staffRole, roles);
}
