import { Link, NavLink, type LinkProps, type NavLinkProps } from 'react-router';
import type { AppPath } from '../../paths';

// Links of the public site. Their paths are checked against the route manifest when the code is
// type-checked (a typo fails tsc), yet cost no JavaScript: the prerendered marketing pages do not
// load the manifest (src/web/paths.ts, which the signed-in areas use).

export function PageLink({ to, ...props }: Omit<LinkProps, 'to'> & { to: AppPath }) {
  return <Link to={to} {...props} />;
}

export function PageNavLink({ to, ...props }: Omit<NavLinkProps, 'to'> & { to: AppPath }) {
  return <NavLink to={to} {...props} />;
}
