import { BANK_NAME } from '../../lib/settings';
import { Logo } from './logo';
import { footerLinks } from './nav-links';
import { PageLink } from '../ui/page-link';

export function SiteFooter() {
  return (
    <footer className="bg-brand-900 text-slate-100">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 md:grid-cols-3">
        <div>
          <Logo light />
          <p className="mt-4 text-sm text-slate-300">Personal, business and online banking, with every cent accounted for.</p>
          <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
            <PageLink to="/signin" className="font-semibold text-white underline underline-offset-4">
              Online Banking Login
            </PageLink>
            <PageLink to="/about" className="text-slate-200 underline underline-offset-4 hover:text-white">
              Who we are
            </PageLink>
          </p>
        </div>
        <nav aria-label="Footer" className="md:col-span-2">
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <PageLink to={link.to} className="text-slate-200 hover:text-white hover:underline">
                  {link.label}
                </PageLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto max-w-7xl space-y-3 px-4 py-6 text-xs leading-relaxed text-slate-300">
          <p>
            <strong className="text-slate-100">Investment disclosure:</strong> Investment products are not FDIC insured, are not bank guaranteed and may lose
            value, including the principal invested. Past performance does not guarantee future results.
          </p>
          <p>
            <strong className="text-slate-100">Deposit disclosure:</strong> Rates (APY) are variable and may change after the account is opened. Fees may reduce
            earnings.
          </p>
          <p>
            <strong className="text-slate-100">Lending disclosure:</strong> All loans are subject to credit approval. Rates, terms and conditions vary and are
            subject to change.
          </p>
          <p>
            © {BANK_NAME}. Open-source software. Deposit, lending and investment figures on this site are examples an operator sets; the terms you receive when
            opening a product apply.
          </p>
        </div>
      </div>
    </footer>
  );
}
