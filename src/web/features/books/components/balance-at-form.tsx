import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { ZBalanceAtQuery } from '../../../../shared/contracts/journal';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { formatCents, formatDate } from '../../../lib/format';
import { fetchBalanceAt } from '../api/balance-at';
import { ledgerAccountsQuery } from '../api/list-accounts';
import { accountLine } from '../format';

interface BalanceAtValues {
  accountId: string;
  date: string;
}

/**
 * Any account's balance at the end of a past bank day, from its postings (by booking time). The
 * bank's own accounts are listed, and a customer's when the page was opened for one (`ownerId`).
 */
export function BalanceAtForm({ ownerId = '', initialAccountId = '', today }: { ownerId?: string; initialAccountId?: string; today: string }) {
  const bank = useQuery(ledgerAccountsQuery());
  const customer = useQuery({ ...ledgerAccountsQuery(ownerId), enabled: ownerId !== '' });
  // Without a customer, the customer query's key is the bank's own: its cached data is the bank's
  // accounts, which would be listed twice.
  const accounts = [...(ownerId !== '' ? (customer.data ?? []) : []), ...(bank.data ?? [])];
  const form = useForm<BalanceAtValues>({
    resolver: contractResolver(ZBalanceAtQuery, {
      toInput: (values) => ({ date: values.date }),
      required: { fields: ['accountId', 'date'], message: 'Choose an account and a day' },
    }),
    defaultValues: { accountId: initialAccountId, date: '' },
  });
  const action = useFormAction(form, fetchBalanceAt, { refresh: false });
  // The account the address named is chosen once its option exists (the lists load after the form).
  const known = accounts.some((candidate) => candidate.id === initialAccountId);
  useEffect(() => {
    if (known) form.setValue('accountId', initialAccountId);
  }, [form, known, initialAccountId]);
  const { errors } = form.formState;
  const answer = action.result;
  const account = answer ? accounts.find((candidate) => candidate.id === answer.accountId) : undefined;
  return (
    <form onSubmit={action.submit} noValidate aria-label="Balance at a date" className="space-y-4">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_auto] lg:items-start">
        <SelectField label="Account" {...fieldError(errors.accountId)} {...form.register('accountId')}>
          <option value="">Choose an account</option>
          {accounts.map((option) => (
            <option key={option.id} value={option.id}>
              {accountLine(option.kind, option.name, option.number, option.ownerName)}
            </option>
          ))}
        </SelectField>
        <TextField label="End of day" type="date" max={today} {...fieldError(errors.date)} {...form.register('date')} />
        <div className="lg:pt-7">
          <Button type="submit" disabled={action.busy}>
            {action.busy ? 'Working...' : 'Show balance'}
          </Button>
        </div>
      </div>
      <div aria-live="polite">
        {answer ? (
          <p role="status" className="rounded-lg bg-slate-50 p-3 text-slate-900" data-testid="balance-at">
            {account ? accountLine(account.kind, account.name, account.number, account.ownerName) : 'The account'} at the end of {formatDate(answer.date)} (
            {answer.timeZone}): <strong className="tabular-nums">{formatCents(answer.balanceCents)}</strong>
          </p>
        ) : null}
      </div>
    </form>
  );
}
