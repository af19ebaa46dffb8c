import { BANK_NAME } from '../../lib/settings';
import type { AppPath } from '../../paths';
import { PageLink } from '../ui/page-link';

export function Logo({ to = '/', light = false }: { to?: AppPath; light?: boolean }) {
  return (
    <PageLink
      to={to}
      className={`flex items-center gap-2 font-bold ${light ? 'text-white' : 'text-brand-900'} focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600`}
    >
      <svg aria-hidden="true" width="32" height="32" viewBox="0 0 32 32" className="shrink-0">
        <rect width="32" height="32" rx="7" fill="#17507c" />
        <path d="M8 23V9h3v11h7v3H8Zm11 0V9h3v11h3v3h-6Z" fill="#fff" />
      </svg>
      <span className="text-lg leading-tight">{BANK_NAME}</span>
    </PageLink>
  );
}
