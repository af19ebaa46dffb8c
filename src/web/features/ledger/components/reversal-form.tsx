import type { ReactNode, Ref } from 'react';
import { useForm } from 'react-hook-form';
import { ZAdminReversalRequest } from '../../../../shared/contracts/transactions';
import { TEXT_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { reverseTransaction } from '../api';

/**
 * Staff reverse an entry: nothing is erased, a new entry cancels it, with the reason they give
 * (audited). It stands in for the button that opened it (useInlineConfirmation: Escape or Cancel
 * return there). `question` heads the form where the button did not already ask it.
 */
export function ReversalForm({
  entryId,
  question,
  explanation,
  className = '',
  onDone,
  onCancel,
  ref,
}: {
  entryId: string;
  question?: ReactNode;
  explanation: ReactNode;
  className?: string;
  onDone: () => void;
  onCancel: () => void;
  ref: Ref<HTMLFormElement>;
}) {
  const idempotency = useIdempotencyKey();
  const form = useForm<{ reason: string }>({ resolver: contractResolver(ZAdminReversalRequest), defaultValues: { reason: '' } });
  const action = useFormAction(
    form,
    ({ reason }) => reverseTransaction(entryId, reason.trim(), idempotency.keyFor({ entry: entryId, reason: reason.trim() })),
    {
      successToast: (message) => message,
      onSuccess: () => {
        idempotency.settle();
        onDone();
      },
      onError: (error) => idempotency.settle(error),
    },
  );
  return (
    <form ref={ref} onSubmit={action.submit} noValidate className={`space-y-3 ${className}`} aria-label="Confirm reversal">
      {question ? <p className="font-semibold text-slate-900">{question}</p> : null}
      <p className="text-sm text-slate-700">{explanation}</p>
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <TextField label="Reason" maxLength={TEXT_LENGTH_MAX} {...fieldError(form.formState.errors.reason)} {...form.register('reason')} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="danger" disabled={action.busy}>
          {action.busy ? 'Reversing...' : 'Yes, reverse it'}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={action.busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
