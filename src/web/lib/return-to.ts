import { paths } from '../paths';

// Where a sign-in returns to. A visitor who opens a signed-in page is sent to the sign-in page of
// that page's area (the back office's own staff login for /admin/*, the customer sign-in for
// /account/*) with the page in `?next=`, and lands on it after signing in. Only a path of the same
// area is followed: `next` is never another site (no open redirect) nor the sign-in page itself.

export const NEXT_PARAM = 'next';
/** Set when a signed-in customer opened a back office page: the staff login says why it is shown. */
export const STAFF_ONLY_PARAM = 'staffOnly';

const isStaffPath = (pathname: string) => pathname === paths.admin || pathname.startsWith(`${paths.admin}/`);
const isCustomerPath = (pathname: string) => pathname === paths.account || pathname.startsWith(`${paths.account}/`);

/** `value` as a same-area path (with its query), or null when it is anything else. */
export function safeNext(value: string | null | undefined, staff: boolean): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || value.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://bank.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://bank.invalid' || url.pathname === paths.adminLogin) return null;
  if (staff ? !isStaffPath(url.pathname) : !isCustomerPath(url.pathname)) return null;
  return `${url.pathname}${url.search}`;
}

/** The sign-in page for a signed-in page the visitor could not open, returning to it afterwards. */
export function signInPathFor(location: string, { staffOnly = false }: { staffOnly?: boolean } = {}): string {
  const staff = isStaffPath(location.split('?')[0] ?? '');
  const signIn = staff ? paths.adminLogin : paths.signin;
  const next = safeNext(location, staff);
  const search = new URLSearchParams();
  if (next && next !== paths.adminDashboard && next !== paths.accountHome) search.set(NEXT_PARAM, next);
  if (staffOnly) search.set(STAFF_ONLY_PARAM, '1');
  const query = search.toString();
  return query ? `${signIn}?${query}` : signIn;
}

/** After signing in on the page at `search`: the page asked for, when it belongs to the user's area. */
export function nextAfterSignIn(search: string, staff: boolean): string | null {
  return safeNext(new URLSearchParams(search).get(NEXT_PARAM), staff);
}
