import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { AdminUserDto } from '../../../../shared/contracts/admin';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmPanel } from '../../../components/ui/confirm-inline';
import { useAction } from '../../../lib/action';
import { useInlineConfirmation } from '../../../lib/focus';
import { deleteAdminUser } from '../api';
import { paths } from '../../../paths';

type Step = 'idle' | 'first' | 'second';

/**
 * Delete after two confirmations (spec section 5). A customer with ledger history is closed and
 * anonymized instead (DESIGN.md rule 6): the text says which will happen. A failure stays here.
 * Escape cancels either question as its Cancel does, and focus goes back to "Delete user". The two
 * questions are the app's inline ConfirmPanel; ConfirmInline's single question would not carry them.
 */
export function DeleteUser({ user }: { user: AdminUserDto }) {
  const [step, setStep] = useState<Step>('idle');
  const navigate = useNavigate();
  const focusTarget = useRef<HTMLButtonElement>(null);
  const confirmation = useInlineConfirmation<HTMLDivElement>({ open: step !== 'idle', onCancel: () => setStep('idle') });
  useEffect(() => {
    if (step !== 'idle') focusTarget.current?.focus();
  }, [step]);

  // A failure (money still on the account) stays on this page with its message (spec: 'Failed user delete returns to the user page').
  const remove = useAction(() => deleteAdminUser(user._id), {
    successToast: (result) => result.message,
    errorToast: true,
    onSuccess: (result) => {
      if (result.outcome === 'deleted') navigate(paths.adminUsers);
      else setStep('idle');
    },
    // The question closes; focus returns to "Delete user", under the message saying why it failed.
    onError: confirmation.cancel,
  });

  const name = `${user.firstName} ${user.lastName}`;
  const consequence = user.hasLedgerHistory
    ? 'This customer has ledger history, so the account will be closed: sign-in stops, personal data is anonymized and the entries are kept. Balances must be zero first.'
    : 'This customer has no ledger history, so the user and their empty accounts will be deleted permanently.';

  if (user.isAdmin || user.closedAt) return null;
  return (
    <div className="space-y-3">
      {remove.error ? <Alert tone="error">{remove.error.message}</Alert> : null}
      {step === 'idle' ? (
        <Button
          ref={confirmation.opener}
          variant="danger"
          onClick={() => {
            remove.reset();
            setStep('first');
          }}
        >
          Delete user
        </Button>
      ) : null}
      {step === 'first' ? (
        <ConfirmPanel
          ref={confirmation.panel}
          confirmRef={focusTarget}
          tone="danger"
          question={`Delete ${name}?`}
          details={consequence}
          confirmLabel="Yes, continue"
          onConfirm={() => setStep('second')}
          onCancel={confirmation.cancel}
        />
      ) : null}
      {step === 'second' ? (
        <ConfirmPanel
          ref={confirmation.panel}
          confirmRef={focusTarget}
          tone="danger"
          question="Are you absolutely sure?"
          details={`This cannot be undone. ${user.hasLedgerHistory ? `Close the account of ${name}.` : `Delete ${name} permanently.`}`}
          confirmLabel={remove.busy ? 'Working...' : user.hasLedgerHistory ? 'Close account' : 'Delete permanently'}
          busy={remove.busy}
          onConfirm={() => void remove.run()}
          onCancel={confirmation.cancel}
        />
      ) : null}
    </div>
  );
}
