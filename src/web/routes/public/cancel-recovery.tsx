import { useEffect, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageLink } from '../../components/ui/page-link';
import { cancelRecoveryByLink } from '../../features/recovery/api/cancel-by-link';
import { useAction } from '../../lib/action';

export function meta() {
  return [{ title: 'Cancel the account recovery' }];
}

/**
 * The link in the notice of a support recovery (ADR 025). Opening it changes nothing (mail
 * scanners open links too): the owner presses the button.
 */
export default function CancelRecoveryPage() {
  // The token is read after hydration: this page is prerendered without it.
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    setToken(new URLSearchParams(window.location.search).get('token'));
  }, []);
  const action = useAction((value: string) => cancelRecoveryByLink(value), { refresh: false });
  return (
    <div className="w-full max-w-md space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">Cancel the account recovery</h1>
      <p className="text-slate-700">
        Our support team was asked to remove the second factors of your account so that it can be signed in to with the password alone. If you did not ask for
        this, cancel it: nothing will change.
      </p>
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      {action.done ? (
        <Alert tone="success">{action.result}</Alert>
      ) : (
        <Button disabled={!token || action.busy} onClick={() => token && void action.run(token)}>
          {action.busy ? 'Cancelling...' : 'Cancel the recovery'}
        </Button>
      )}
      <p className="text-sm text-slate-700">If someone asked for it in your name, also change your password and contact support.</p>
      <p className="text-center text-sm">
        <PageLink to="/signin" className="font-medium text-brand-800 hover:underline">
          Go to sign in
        </PageLink>
      </p>
    </div>
  );
}
