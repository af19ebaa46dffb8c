import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ZInternalTransferRequest, type CustomerAccountKind } from '../../../../shared/contracts/transactions';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { AmountField, SelectField } from '../../../components/ui/form';
import { formatDollars } from '../../../lib/format';
import { contractResolver, useFormAction, fieldError } from '../../../lib/form';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { useCurrentUser } from '../../../lib/current-user';
import { paths } from '../../../paths';
import { internalTransfer } from '../api';

interface InternalValues {
  from: CustomerAccountKind;
  to: CustomerAccountKind;
  amount: string;
}

/** Between the customer's own savings and checking: no code needed. */
export function InternalTransferForm() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const idempotency = useIdempotencyKey();
  const form = useForm<InternalValues>({
    resolver: contractResolver(ZInternalTransferRequest, {
      check: (values) => (Number(values.amount) > user.account[values.from] ? { amount: 'Insufficient funds' } : null),
    }),
    defaultValues: { from: 'savings', to: 'checking', amount: '' },
  });
  const { errors } = form.formState;
  const action = useFormAction(
    form,
    (values) => {
      const body = { from: values.from, to: values.to, amount: values.amount.trim() };
      return internalTransfer(body, idempotency.keyFor(body));
    },
    {
      successToast: (answer) => answer.message,
      onSuccess: () => {
        idempotency.settle();
        navigate(paths.accountTransactions);
      },
      onError: (error) => idempotency.settle(error),
    },
  );

  return (
    <form onSubmit={action.submit} noValidate className="space-y-4" aria-label="Internal transfer">
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="From" {...fieldError(errors.from)} {...form.register('from')}>
          <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
          <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
        </SelectField>
        <SelectField label="To" {...fieldError(errors.to)} {...form.register('to')}>
          <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
          <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
        </SelectField>
      </div>
      <AmountField label="Amount (USD)" {...fieldError(errors.amount)} {...form.register('amount')} />
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Sending...' : 'Transfer'}
      </Button>
    </form>
  );
}
