import { useEffect, useRef, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { SEARCH_LENGTH_MAX, ZTransactionListQuery } from '../../../../shared/contracts/transactions';
import { Button } from '../../../components/ui/button';
import { AmountField, SelectField, TextField } from '../../../components/ui/form';
import { contractResolver } from '../../../lib/form';
import { NO_FILTER, type TransactionFilterValues } from '../filter';

/** The amount fields' labels for the contract's parameter names ("amountMin must not be more than amountMax"). */
const LABELS = { amountMin: 'Amount from (USD)', amountMax: 'Amount to (USD)', from: '"From"', to: '"To"' } as const;

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
  search = false,
}: {
  label: string;
  value: TransactionFilterValues;
  onApply: (filter: TransactionFilterValues) => void;
  /** The Type select's "no filter" option. */
  allTypes: string;
  dateHint?: string;
  className: string;
  /** Show the words and amount range fields too (the customer's history). */
  search?: boolean;
}) {
  const form = useForm<TransactionFilterValues>({
    resolver: contractResolver(ZTransactionListQuery, {
      toInput: (values) => Object.fromEntries(Object.entries(values).filter(([, field]) => field !== '')),
      labels: LABELS,
    }),
    defaultValues: value,
  });
  const { errors } = form.formState;
  // The filter this form just applied: the address catches up with it a moment later (a navigation
  // renders in a transition), by when the customer may be typing the next one.
  const applied = useRef<TransactionFilterValues | null>(null);
  const apply = (filter: TransactionFilterValues) => {
    applied.current = filter;
    onApply(filter);
  };
  // Back, forward or a link changes the address: the form shows what the list shows. The address
  // catching up with what this form applied leaves what is being typed alone.
  const { type, account, from, to, q, amountMin, amountMax } = value;
  useEffect(() => {
    const shown = { type, account, from, to, q, amountMin, amountMax };
    const ours = applied.current !== null && sameFilter(applied.current, shown);
    applied.current = null;
    if (!ours) form.reset(shown);
  }, [form, type, account, from, to, q, amountMin, amountMax]);

  return (
    <form onSubmit={form.handleSubmit(apply)} noValidate aria-label={label} className={search ? 'space-y-4' : className}>
      {search ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
          <TextField
            label="Search"
            type="search"
            hint="Words in the description or the payee's name"
            maxLength={SEARCH_LENGTH_MAX}
            error={errors.q?.message}
            {...form.register('q')}
          />
          <AmountField label={LABELS.amountMin} error={errors.amountMin?.message} {...form.register('amountMin')} />
          <AmountField label={LABELS.amountMax} error={errors.amountMax?.message} {...form.register('amountMax')} />
        </div>
      ) : null}
      <FilterRow search={search} className={className}>
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
              apply(NO_FILTER);
            }}
          >
            Reset
          </Button>
        </div>
      </FilterRow>
    </form>
  );
}

const sameFilter = (a: TransactionFilterValues, b: TransactionFilterValues) =>
  (Object.keys(NO_FILTER) as Array<keyof TransactionFilterValues>).every((key) => (a[key] ?? '') === (b[key] ?? ''));

/** The fields every history filter has: the form itself lays them out, or a row under the search fields does. */
function FilterRow({ search, className, children }: { search: boolean; className: string; children: ReactNode }) {
  return search ? <div className={className}>{children}</div> : <>{children}</>;
}
