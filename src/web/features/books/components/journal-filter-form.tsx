import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { ZJournalQuery } from '../../../../shared/contracts/journal';
import { ENTRY_KINDS } from '../../../../shared/contracts/transactions';
import { EMAIL_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { AmountField, SelectField, TextField } from '../../../components/ui/form';
import { contractResolver, fieldError } from '../../../lib/form';
import { ledgerAccountsQuery } from '../api/list-accounts';
import { isoToLocalInput, localInputToIso, NO_JOURNAL_FILTER, type JournalFilterValues } from '../filter';
import { entryKindLabel } from '../format';

/** The form shows booking times as local date and time; the address and the API hold instants. */
const toForm = (filter: JournalFilterValues): JournalFilterValues => ({
  ...filter,
  bookedFrom: isoToLocalInput(filter.bookedFrom),
  bookedTo: isoToLocalInput(filter.bookedTo),
});
const fromForm = (values: JournalFilterValues): JournalFilterValues => ({
  ...values,
  customer: values.customer.trim(),
  amountMin: values.amountMin.trim(),
  amountMax: values.amountMax.trim(),
  bookedFrom: localInputToIso(values.bookedFrom),
  bookedTo: localInputToIso(values.bookedTo),
});
const nonEmpty = (values: JournalFilterValues) => Object.fromEntries(Object.entries(fromForm(values)).filter(([, value]) => value !== ''));

/** The form's labels for the API's parameter names, so a message names the fields as staff see them. */
export const JOURNAL_FILTER_LABELS: Record<keyof JournalFilterValues, string> = {
  kind: 'Entry kind',
  customer: 'Customer',
  account: 'Account',
  amountMin: 'Amount from',
  amountMax: 'Amount to',
  bookedFrom: 'Booked from',
  bookedTo: 'Booked before',
  valueFrom: 'Value date from',
  valueTo: 'Value date to',
};

const resolver = contractResolver<JournalFilterValues>(ZJournalQuery, { toInput: nonEmpty, labels: JOURNAL_FILTER_LABELS });

/**
 * The journal's filters, checked with the API's own contract (ZJournalQuery) before the address
 * changes: a range the wrong way round or an amount that is not one is named at its field.
 */
export function JournalFilterForm({ value, onApply }: { value: JournalFilterValues; onApply: (filter: JournalFilterValues) => void }) {
  const bankAccounts = useQuery(ledgerAccountsQuery());
  const form = useForm<JournalFilterValues>({ resolver, defaultValues: toForm(value) });
  const { errors } = form.formState;
  const firstError = Object.values(errors)[0]?.message;
  const alert = firstError ? { message: String(firstError) } : null;
  useEffect(() => form.reset(toForm(value)), [form, value]);

  // An account named by the address (a link from an entry page) that is not one of the bank's stays choosable.
  const accountOptions = bankAccounts.data ?? [];
  const otherAccount = value.account && !accountOptions.some((account) => account.id === value.account) ? value.account : '';

  return (
    <form
      aria-label="Filter the journal"
      noValidate
      onSubmit={form.handleSubmit((values) => onApply(fromForm(values)))}
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-start"
    >
      {alert ? (
        <div className="sm:col-span-2 lg:col-span-4">
          <Alert tone="error">{alert.message}</Alert>
        </div>
      ) : null}
      <SelectField label="Entry kind" {...fieldError(errors.kind)} {...form.register('kind')}>
        <option value="">All kinds</option>
        {ENTRY_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {entryKindLabel(kind)}
          </option>
        ))}
      </SelectField>
      <TextField
        label="Customer"
        maxLength={EMAIL_LENGTH_MAX}
        hint="Email, account number or id"
        {...fieldError(errors.customer)}
        {...form.register('customer')}
      />
      <SelectField label="Account" hint="The bank's own, or one chosen from an entry" {...fieldError(errors.account)} {...form.register('account')}>
        <option value="">All accounts</option>
        {accountOptions.map((account) => (
          <option key={account.id} value={account.id}>
            {account.name}
          </option>
        ))}
        {otherAccount ? <option value={otherAccount}>The account chosen</option> : null}
      </SelectField>
      <div className="grid grid-cols-2 gap-3">
        <AmountField label="Amount from" placeholder="0.00" {...fieldError(errors.amountMin)} {...form.register('amountMin')} />
        <AmountField label="Amount to" placeholder="0.00" {...fieldError(errors.amountMax)} {...form.register('amountMax')} />
      </div>
      <TextField label="Booked from" type="datetime-local" {...fieldError(errors.bookedFrom)} {...form.register('bookedFrom')} />
      <TextField label="Booked before" type="datetime-local" {...fieldError(errors.bookedTo)} {...form.register('bookedTo')} />
      <TextField label="Value date from" type="date" {...fieldError(errors.valueFrom)} {...form.register('valueFrom')} />
      <TextField label="Value date to" type="date" {...fieldError(errors.valueTo)} {...form.register('valueTo')} />
      <div className="flex flex-wrap gap-3 sm:col-span-2 lg:col-span-4">
        <Button type="submit">Filter</Button>
        <Button
          variant="secondary"
          onClick={() => {
            form.reset(NO_JOURNAL_FILTER);
            onApply(NO_JOURNAL_FILTER);
          }}
        >
          Reset
        </Button>
      </div>
    </form>
  );
}
