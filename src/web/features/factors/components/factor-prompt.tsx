import { useQuery } from '@tanstack/react-query';
import { ShieldCheck, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ButtonLink } from '../../../components/ui/button';
import { factorSummaryQuery } from '../api/factor-summary';

const DISMISSED_KEY = 'll_factor_prompt_dismissed';

/**
 * The dashboard's nudge for a customer without a second factor: what it is for and where to set it
 * up. Dismissed, it stays away on this browser (a preference, nothing secret: localStorage).
 */
export function FactorPrompt({ securityPath }: { securityPath: string }) {
  const { data } = useQuery(factorSummaryQuery());
  const [dismissed, setDismissed] = useState(true);
  useEffect(() => {
    try {
      setDismissed(localStorage.getItem(DISMISSED_KEY) === '1');
    } catch {
      setDismissed(false);
    }
  }, []);
  if (!data || dismissed || data.passkeys > 0 || data.totp) return null;

  function dismiss() {
    setDismissed(true);
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Private mode: it comes back next time, which is harmless.
    }
  }

  return (
    <section
      aria-labelledby="factor-prompt-heading"
      className="relative flex flex-wrap items-start gap-4 rounded-xl border border-brand-200 bg-brand-50 p-4 pr-12"
    >
      <ShieldCheck aria-hidden="true" className="h-6 w-6 shrink-0 text-brand-800" />
      <div className="min-w-0 flex-1 space-y-2">
        <h2 id="factor-prompt-heading" className="font-semibold text-slate-900">
          Protect your account with a second factor
        </h2>
        <p className="text-sm text-slate-800">
          Add a passkey or an authenticator app: then your password alone is not enough to sign in, even if someone learns it.
        </p>
        <ButtonLink to={securityPath} variant="primary">
          Set up a second factor
        </ButtonLink>
      </div>
      <button
        type="button"
        onClick={dismiss}
        className="absolute right-2 top-2 rounded p-2 text-slate-700 hover:bg-brand-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      >
        <X aria-hidden="true" className="h-5 w-5" />
        <span className="sr-only">Dismiss: do not suggest a second factor again</span>
      </button>
    </section>
  );
}
