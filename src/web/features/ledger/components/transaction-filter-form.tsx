import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { ZTransactionListQuery } from '../../../../shared/contracts/transactions';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form';
import { contractResolver } from '../../../lib/form';
import { NO_FILTER, type TransactionFilterValues } from '../filter';

const FROM_AFTER_TO = '"From" must be on or before "To"';

/**
 * A history list's filters, applied with the Filter button (or Enter in any field) and kept in the
 * address; checked with the list call's own contract first. Reset shows everything again.
 */
export function TransactionFilterForm({
  label,
  value,
  onApply,
  allTypes,
  dateHint,
  className,
}: {
  label: string;
  value: TransactionFilterValues;
  onApply: (filter: TransactionFilterValues) => void;
  /** The Type select's "no filter" option. */
  allTypes: string;
  dateHint?: string;
  className: string;
}) {
  const form = useForm<TransactionFilterValues>({
    resolver: contractResolver(ZTransactionListQuery, {
      toInput: (values) => Object.fromEntries(Object.entries(values).filter(([, field]) => field !== '')),
      check: (values) => (values.from && values.to && values.from > values.to ? { to: FROM_AFTER_TO } : null),
    }),
    defaultValues: value,
  });
  const { errors } = form.formState;
  // Back, forward or a link changes the address: the form shows what the list shows.
  const { type, account, from, to } = value;
  useEffect(() => form.reset({ type, account, from, to }), [form, type, account, from, to]);

  return (
    <form onSubmit={form.handleSubmit(onApply)} noValidate aria-label={label} className={className}>
      <SelectField label="Type" error={errors.type?.message} {...form.register('type')}>
        <option value="">{allTypes}</option>
        <option value="credit">Credits</option>
        <option value="debit">Debits</option>
      </SelectField>
      <SelectField label="Account" error={errors.account?.message} {...form.register('account')}>
        <option value="">All accounts</option>
        <option value="savings">Savings</option>
        <option value="checking">Checking</option>
      </SelectField>
      <TextField label="From" type="date" hint={dateHint} error={errors.from?.message} {...form.register('from')} />
      <TextField label="To" type="date" hint={dateHint} error={errors.to?.message} {...form.register('to')} />
      {/* Level with the inputs, whose labels sit above them. */}
      <div className="flex gap-3 lg:mt-6">
        <Button type="submit">Filter</Button>
        <Button
          variant="secondary"
          onClick={() => {
            form.reset(NO_FILTER);
            onApply(NO_FILTER);
          }}
        >
          Reset
        </Button>
      </div>
    </form>
  );
}
