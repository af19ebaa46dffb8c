import { LogOut, Menu, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Link, NavLink, useLocation, useNavigation } from 'react-router';
import { IdleWarning } from './idle-warning';
import { Logo } from './logo';
import { useEscapeCloses } from '../../lib/escape-closes';
import { paths, type AppPath } from '../../paths';

export interface ShellLink {
  to: string;
  label: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>;
  /** A count shown next to the label (e.g. requests waiting for approval), read with it: "Approvals, 2 pending". */
  badge?: { count: number; label: string };
}

/** The signed-in frame shared by the customer area and the back office: sidebar, top bar, content. */
export function AppShell({
  links,
  navLabel,
  homePath,
  header,
  onSignOut,
  children,
}: {
  links: ShellLink[];
  navLabel: string;
  homePath: AppPath;
  header: ReactNode;
  /** Ends the session (the layout passes the auth feature's call). */
  onSignOut: () => Promise<void>;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  // While the next page (or the same list with other filters) loads, what is shown is the old one.
  const loading = useNavigation().state === 'loading';
  useEffect(() => setOpen(false), [pathname]);
  const menuButton = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useEscapeCloses({ open, onClose: useCallback(() => setOpen(false), []), opener: menuButton, menu });

  async function logout() {
    await onSignOut().catch(() => undefined);
    // A full load: nothing of the signed-in pages (their cached data) outlives the session in this
    // tab, and no signed-in page renders a moment without its user.
    window.location.replace(paths.home);
  }

  const sidebar = (
    <nav aria-label={navLabel} className="flex flex-1 flex-col gap-1 p-4">
      <ul className="flex flex-col gap-1">
        {links.map(({ to, label, icon: Icon, badge }) => (
          <li key={to}>
            <NavLink
              to={to}
              end
              className={({ isActive }) =>
                `flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-white ${isActive ? 'bg-white/15 text-white' : 'text-slate-200 hover:bg-white/10 hover:text-white'}`
              }
            >
              <Icon aria-hidden={true} className="h-5 w-5" />
              {label}
              {badge && badge.count > 0 ? (
                <span className="ml-auto rounded-full bg-amber-300 px-2 py-0.5 text-xs font-bold text-slate-900" data-testid="nav-badge">
                  {badge.count}
                  <span className="sr-only"> {badge.label}</span>
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={logout}
        className="mt-auto flex items-center gap-3 rounded-md px-3 py-2 text-left text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
      >
        <LogOut aria-hidden="true" className="h-5 w-5" />
        Logout
      </button>
    </nav>
  );

  return (
    <div className="min-h-screen bg-slate-50 lg:flex">
      <aside className="hidden w-64 shrink-0 flex-col bg-brand-900 lg:flex">
        <div className="flex h-16 items-center border-b border-white/10 px-4">
          <Logo to={homePath} light />
        </div>
        {sidebar}
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-16 items-center justify-between gap-3 border-b border-slate-200 bg-white px-4">
          <button
            ref={menuButton}
            type="button"
            className="rounded p-2 text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 lg:hidden"
            aria-expanded={open}
            aria-controls="shell-menu"
            onClick={() => setOpen((value) => !value)}
          >
            {open ? <X aria-hidden="true" className="h-6 w-6" /> : <Menu aria-hidden="true" className="h-6 w-6" />}
            <span className="sr-only">{open ? 'Close menu' : 'Open menu'}</span>
          </button>
          {header}
        </header>
        <div ref={menu} id="shell-menu" hidden={!open} className="flex-col bg-brand-900 lg:hidden">
          {sidebar}
        </div>
        <main id="main" aria-busy={loading} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-6">
          {children}
        </main>
        <footer className="px-6 pb-6 text-xs text-slate-600">
          <Link to={paths.privacyPolicy} className="hover:underline">
            Privacy Policy
          </Link>
        </footer>
      </div>
      <IdleWarning onSignOut={() => void logout()} />
    </div>
  );
}
