import { Outlet } from 'react-router';
import { Logo } from '../../components/layout/logo';
import { BANK_NAME } from '../../lib/settings';
import { PageLink } from '../../components/ui/page-link';

/** Sign-in, sign-up and verification pages: a quiet frame without the marketing navigation. */
export default function StandaloneLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-brand-50 to-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-5xl items-center justify-between px-4">
          <Logo />
          <PageLink to="/" className="text-sm font-medium text-brand-800 hover:underline">
            Back to home
          </PageLink>
        </div>
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-10">
        <Outlet />
      </main>
      <footer className="py-6 text-center text-xs text-slate-600">
        © {new Date().getFullYear()} {BANK_NAME}
      </footer>
    </div>
  );
}
