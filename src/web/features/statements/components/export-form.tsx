import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { EXPORT_RANGE_DAYS_MAX, ZExportQuery } from '../../../../shared/contracts/statements';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form';
import { contractResolver, useFormAction, fieldError } from '../../../lib/form';
import { type ExportValues, exportTransactions } from '../api/export-transactions';
import { statementCalendarQuery } from '../api/statement-calendar';

/** CSV or OFX of one account's transactions between two dates (inclusive), checked with the call's own contract first. */
export function ExportForm() {
  const calendar = useQuery(statementCalendarQuery());
  if (calendar.isPending) return <p className="text-slate-700">Loading…</p>;
  if (calendar.isError) return <Alert tone="error">{calendar.error.message}</Alert>;
  return <ExportFormFields defaults={{ format: 'csv', account: 'checking', from: `${calendar.data.currentMonth}-01`, to: calendar.data.today }} />;
}

// A date input left empty sends "": the contract's "Dates look like YYYY-MM-DD" would not match what
// the date picker shows (its format follows the browser's language), so an empty date gets its own message.
const resolver = contractResolver<ExportValues>(ZExportQuery, { required: { fields: ['from', 'to'], message: 'Choose a start and an end date.' } });

function ExportFormFields({ defaults }: { defaults: ExportValues }) {
  const form = useForm<ExportValues>({ resolver, defaultValues: defaults });
  const { errors } = form.formState;
  const action = useFormAction(form, exportTransactions, { refresh: false });
  return (
    <form onSubmit={action.submit} noValidate aria-label="Export transactions" className="space-y-4">
      <div aria-live="polite">{action.error ? <Alert tone="error">{action.error.message}</Alert> : null}</div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField label="Format" {...fieldError(errors.format)} {...form.register('format')}>
          <option value="csv">CSV (spreadsheets)</option>
          <option value="ofx">OFX (finance programs)</option>
        </SelectField>
        <SelectField label="Account" {...fieldError(errors.account)} {...form.register('account')}>
          <option value="checking">Checking</option>
          <option value="savings">Savings</option>
        </SelectField>
        <TextField label="From" type="date" required {...fieldError(errors.from)} {...form.register('from')} />
        <TextField label="To" type="date" required {...fieldError(errors.to)} {...form.register('to')} />
      </div>
      <p className="text-sm text-slate-600">Dates are inclusive, in the bank's time zone; an export covers at most {EXPORT_RANGE_DAYS_MAX} days.</p>
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Preparing…' : 'Download export'}
      </Button>
    </form>
  );
}
