import { useForm } from 'react-hook-form';
import { PAYMENT_REQUEST_NOTE_LENGTH_MAX, ZPaymentRequestCreate } from '../../../../shared/contracts/payment-requests';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { AmountField, TextField } from '../../../components/ui/form';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { createPaymentRequest } from '../api/create-payment-request';

interface RequestValues {
  to: string;
  amount: string;
  note: string;
}

const EMPTY: RequestValues = { to: '', amount: '', note: '' };

/** Ask another customer for money: their email or account number, an amount and a note. */
export function RequestForm() {
  const form = useForm<RequestValues>({ resolver: contractResolver(ZPaymentRequestCreate), defaultValues: EMPTY });
  const action = useFormAction(
    form,
    (values) => createPaymentRequest({ to: values.to.trim(), amount: values.amount.trim(), note: values.note.trim() || undefined }),
    {
      successToast: (answer) => answer.message,
      onSuccess: () => form.reset(EMPTY),
    },
  );
  const { errors } = form.formState;
  return (
    <form onSubmit={(event) => void action.submit(event)} noValidate className="space-y-4" aria-label="Request money">
      <TextField
        label="Who are you asking?"
        hint="Their email address or their 10-digit account number. They must bank with us to see your request."
        autoComplete="off"
        {...fieldError(errors.to)}
        {...form.register('to')}
      />
      <AmountField label="Amount (USD)" {...fieldError(errors.amount)} {...form.register('amount')} />
      <TextField
        label="Note (optional)"
        maxLength={PAYMENT_REQUEST_NOTE_LENGTH_MAX}
        hint="What it is for, e.g. Concert tickets."
        autoComplete="off"
        {...fieldError(errors.note)}
        {...form.register('note')}
      />
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      {action.done ? (
        <p role="status" className="text-sm text-slate-800">
          Request sent. If they bank with us, they will see it in their notifications.
        </p>
      ) : null}
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Sending...' : 'Send request'}
      </Button>
    </form>
  );
}
