import { ChevronDown, Menu, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'react-router';
import { useEscapeCloses } from '../../lib/escape-closes';
import { buttonClass } from '../ui/button';
import { Logo } from './logo';
import { menus, type NavLink as NavLinkEntry } from './nav-links';
import { PageLink, PageNavLink } from '../ui/page-link';

function Dropdown({
  label,
  links,
  open,
  onToggle,
  onClose,
}: {
  label: string;
  links: NavLinkEntry[];
  open: boolean;
  onToggle: () => void;
  onClose: () => void;
}) {
  const id = `menu-${label.toLowerCase()}`;
  const buttonRef = useRef<HTMLButtonElement>(null);
  // Escape from inside the list closes it and puts focus back on its button (not on a hidden link).
  const escape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    onClose();
    buttonRef.current?.focus();
  };
  return (
    <li
      className="relative"
      onBlur={(event) => {
        // Tabbing out of an open menu closes it.
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) onClose();
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="flex items-center gap-1 rounded px-3 py-2 font-medium text-slate-800 hover:text-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        aria-expanded={open}
        aria-controls={id}
        onClick={onToggle}
        onKeyDown={(event) => event.key === 'Escape' && onClose()}
      >
        {label}
        <ChevronDown aria-hidden="true" className={`h-4 w-4 transition ${open ? 'rotate-180' : ''}`} />
      </button>
      <ul id={id} hidden={!open} className="absolute left-0 top-full z-50 mt-1 w-64 rounded-lg border border-slate-200 bg-white py-2 shadow-lg">
        {links.map((link) => (
          <li key={link.to}>
            <PageLink
              to={link.to}
              className="block px-4 py-2 text-slate-800 hover:bg-brand-50 focus:bg-brand-50 focus:outline-none"
              onClick={onClose}
              onKeyDown={escape}
            >
              {link.label}
            </PageLink>
          </li>
        ))}
      </ul>
    </li>
  );
}

export function SiteHeader() {
  const [openMenu, setOpenMenu] = useState<string | null>(null);
  const [mobileOpen, setMobileOpen] = useState(false);
  const location = useLocation();
  const navRef = useRef<HTMLElement>(null);
  const mobileButton = useRef<HTMLButtonElement>(null);
  const mobileMenu = useRef<HTMLElement>(null);
  useEscapeCloses({ open: mobileOpen, onClose: useCallback(() => setMobileOpen(false), []), opener: mobileButton, menu: mobileMenu });

  useEffect(() => {
    setOpenMenu(null);
    setMobileOpen(false);
  }, [location.pathname]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (navRef.current && !navRef.current.contains(event.target as Node)) setOpenMenu(null);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `rounded px-3 py-2 font-medium hover:text-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ${isActive ? 'text-brand-700' : 'text-slate-800'}`;

  return (
    <header className="sticky top-0 z-50 h-[70px] border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-4 px-4">
        <Logo />
        <nav ref={navRef} aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {menus.map((menu) => (
              <Dropdown
                key={menu.label}
                label={menu.label}
                links={menu.links}
                open={openMenu === menu.label}
                onToggle={() => setOpenMenu((current) => (current === menu.label ? null : menu.label))}
                onClose={() => setOpenMenu(null)}
              />
            ))}
            <li>
              <PageNavLink to="/ways-to-bank" className={linkClass}>
                Ways To Bank
              </PageNavLink>
            </li>
            <li>
              <PageLink to="/signup" className={buttonClass('secondary', 'ml-2')}>
                Create Account
              </PageLink>
            </li>
            <li>
              <PageLink to="/signin" className={buttonClass('primary', 'ml-2')}>
                Login Account
              </PageLink>
            </li>
          </ul>
        </nav>
        <button
          ref={mobileButton}
          type="button"
          className="rounded p-2 text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 lg:hidden"
          aria-expanded={mobileOpen}
          aria-controls="mobile-menu"
          onClick={() => setMobileOpen((open) => !open)}
        >
          {mobileOpen ? <X aria-hidden="true" className="h-6 w-6" /> : <Menu aria-hidden="true" className="h-6 w-6" />}
          <span className="sr-only">{mobileOpen ? 'Close menu' : 'Open menu'}</span>
        </button>
      </div>
      <nav
        ref={mobileMenu}
        id="mobile-menu"
        aria-label="Mobile"
        hidden={!mobileOpen}
        className="max-h-[calc(100vh-70px)] overflow-y-auto border-b border-slate-200 bg-white px-4 pb-6 shadow-lg lg:hidden"
      >
        {menus.map((menu) => (
          <div key={menu.label} className="border-b border-slate-100 py-3">
            <p className="px-2 text-sm font-semibold uppercase tracking-wide text-slate-600">{menu.label}</p>
            <ul className="mt-1">
              {menu.links.map((link) => (
                <li key={link.to}>
                  <PageLink to={link.to} className="block rounded px-2 py-2 text-slate-800 hover:bg-brand-50">
                    {link.label}
                  </PageLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <ul className="mt-3 grid gap-2">
          <li>
            <PageLink to="/ways-to-bank" className="block rounded px-2 py-2 font-medium text-slate-800 hover:bg-brand-50">
              Ways To Bank
            </PageLink>
          </li>
          <li>
            <PageLink to="/signin" className={buttonClass('primary', 'w-full')}>
              Open Account
            </PageLink>
          </li>
          <li>
            <PageLink to="/signup" className={buttonClass('secondary', 'w-full')}>
              Activate Account
            </PageLink>
          </li>
          <li>
            <PageLink to="/signup" className={buttonClass('secondary', 'w-full')}>
              Create Account
            </PageLink>
          </li>
          <li>
            <PageLink to="/signin" className={buttonClass('primary', 'w-full')}>
              Login Account
            </PageLink>
          </li>
        </ul>
      </nav>
    </header>
  );
}
