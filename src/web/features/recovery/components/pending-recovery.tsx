import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useAction } from '../../../lib/action';
import { formatDate } from '../../../lib/format';
import { cancelMyRecovery, myRecoveryQuery } from '../api/my-recovery';

/**
 * On the security page, while support is recovering the account (ADR 025): when it takes effect,
 * and a button that cancels it for a customer who did not ask for it.
 */
export function PendingRecovery() {
  const { data } = useQuery(myRecoveryQuery());
  const cancel = useAction(() => cancelMyRecovery(), { successToast: (message) => message, errorToast: true });
  if (!data) return null;
  return (
    <section aria-labelledby="recovery-heading" className="space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-4 sm:p-5">
      <h2 id="recovery-heading" className="text-lg font-semibold text-slate-900">
        Account recovery pending
      </h2>
      <p className="text-sm text-slate-900">
        Our support team is recovering your account. On {formatDate(data.effectiveAt, 'dateTime')} your second factors will be removed and every session signed
        out, so that the account can be signed in to with the password alone. If you did not ask for this, cancel it now and contact support.
      </p>
      {cancel.error ? <Alert tone="error">{cancel.error.message}</Alert> : null}
      <Button variant="danger" disabled={cancel.busy} onClick={() => void cancel.run()}>
        {cancel.busy ? 'Cancelling...' : 'Cancel the recovery'}
      </Button>
    </section>
  );
}
