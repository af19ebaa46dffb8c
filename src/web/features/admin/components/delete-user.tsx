import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { AdminUserDto } from '../../../../shared/contracts/admin';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClass } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api';
import { deleteAdminUser } from '../api';
import { paths } from '../../../paths';

type Step = 'idle' | 'first' | 'second';

/**
 * Delete after two confirmations (spec section 5). A customer with ledger history is closed and
 * anonymized instead (DESIGN.md rule 6): the text says which will happen. A failure stays here.
 */
export function DeleteUser({ user }: { user: AdminUserDto }) {
  const [step, setStep] = useState<Step>('idle');
  const [error, setError] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const focusTarget = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (step !== 'idle') focusTarget.current?.focus();
  }, [step]);

  const mutation = useMutation({
    mutationFn: () => deleteAdminUser(user._id),
    onSuccess: async (result) => {
      toast.success(result.message);
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
      if (result.outcome === 'deleted') navigate(paths.adminUsers);
      else setStep('idle');
    },
    onError: (caught) => {
      const message = errorMessage(caught);
      setError(message);
      toast.error(message);
      setStep('idle');
    },
  });

  const name = `${user.firstName} ${user.lastName}`;
  const consequence = user.hasLedgerHistory
    ? 'This customer has ledger history, so the account will be closed: sign-in stops, personal data is anonymized and the entries are kept. Balances must be zero first.'
    : 'This customer has no ledger history, so the user and their empty accounts will be deleted permanently.';

  if (user.isAdmin || user.closedAt) return null;
  return (
    <div className="space-y-3">
      {error ? <Alert tone="error">{error}</Alert> : null}
      {step === 'idle' ? (
        <Button
          variant="danger"
          onClick={() => {
            setError('');
            setStep('first');
          }}
        >
          Delete user
        </Button>
      ) : null}
      {step === 'first' ? (
        <div
          role="alertdialog"
          aria-labelledby="delete-first-title"
          aria-describedby="delete-first-text"
          className="space-y-3 rounded-lg border border-red-300 bg-red-50 p-4"
        >
          <p id="delete-first-title" className="font-semibold text-red-900">
            Delete {name}?
          </p>
          <p id="delete-first-text" className="text-sm text-red-900">
            {consequence}
          </p>
          <div className="flex flex-wrap gap-3">
            <button type="button" ref={focusTarget} className={buttonClass('danger')} onClick={() => setStep('second')}>
              Yes, continue
            </button>
            <Button variant="secondary" onClick={() => setStep('idle')}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
      {step === 'second' ? (
        <div
          role="alertdialog"
          aria-labelledby="delete-second-title"
          aria-describedby="delete-second-text"
          className="space-y-3 rounded-lg border border-red-400 bg-red-50 p-4"
        >
          <p id="delete-second-title" className="font-semibold text-red-900">
            Are you absolutely sure?
          </p>
          <p id="delete-second-text" className="text-sm text-red-900">
            This cannot be undone. {user.hasLedgerHistory ? `Close the account of ${name}.` : `Delete ${name} permanently.`}
          </p>
          <div className="flex flex-wrap gap-3">
            <button type="button" ref={focusTarget} className={buttonClass('danger')} disabled={mutation.isPending} onClick={() => mutation.mutate()}>
              {mutation.isPending ? 'Working...' : user.hasLedgerHistory ? 'Close account' : 'Delete permanently'}
            </button>
            <Button variant="secondary" onClick={() => setStep('idle')}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
