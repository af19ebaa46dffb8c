import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { SelectField, TextAreaField, TextField } from '../../components/ui/form';
import { addAdminTransaction, staffCustomersQuery } from '../../features/ledger/api';
import { useIdempotencyKey } from '../../lib/idempotency';
import { errorMessage } from '../../lib/api';
import { queryClient } from '../../lib/query';
import { BANK_NAME } from '../../lib/settings';
import { paths } from '../../paths';

export function meta() {
  return [{ title: `Add Transaction | ${BANK_NAME}` }];
}

const today = () => new Date().toISOString().slice(0, 10);

export default function AddTransactionPage() {
  const [params] = useSearchParams();
  const customers = useQuery(staffCustomersQuery());
  const [values, setValues] = useState({
    userId: params.get('userId') ?? '',
    amount: '',
    transactionType: 'credit',
    date: today(),
    description: '',
    reason: '',
    account: 'checking',
  });
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const idempotency = useIdempotencyKey();
  const set = (name: keyof typeof values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSuccess(null);
    if (!values.userId || !values.amount.trim() || !values.transactionType || !values.date || !values.description.trim())
      return setError('All fields are required');
    if (values.reason.trim().length < 3) return setError('A reason is required (at least 3 characters)');
    const body = {
      amount: values.amount.trim(),
      transactionType: values.transactionType as 'credit' | 'debit',
      date: values.date,
      description: values.description.trim(),
      reason: values.reason.trim(),
      account: values.account as 'savings' | 'checking',
    };
    setBusy(true);
    setError(null);
    try {
      const result = await addAdminTransaction(values.userId, body, idempotency.keyFor({ userId: values.userId, ...body }));
      idempotency.settle();
      toast.success('Transaction added successfully');
      setSuccess(result.message);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'transactions', values.userId] });
      setValues((current) => ({ ...current, amount: '', description: '', reason: '' }));
    } catch (failure) {
      idempotency.settle(failure);
      toast.error('Error adding transaction');
      setError(`Error adding transaction: ${errorMessage(failure)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="max-w-2xl">
      <PageTitle subtitle="Posts a reasoned adjustment against Operations adjustments. The customer sees it as an adjustment with its real booking time.">
        Add Transaction
      </PageTitle>
      <Card>
        <form onSubmit={submit} noValidate className="space-y-4" aria-label="Add transaction">
          <SelectField label="Customer" name="userId" value={values.userId} onChange={set('userId')} disabled={customers.isPending}>
            <option value="">{customers.isPending ? 'Loading customers…' : 'Choose a customer'}</option>
            {(customers.data ?? []).map((customer) => (
              <option key={customer._id} value={customer._id}>
                {customer.firstName} {customer.lastName} ({customer.email}){customer.accountNumber ? ` · ${customer.accountNumber}` : ''}
              </option>
            ))}
          </SelectField>
          {customers.isError ? <Alert tone="error">{customers.error.message}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="Amount (USD)" name="amount" type="number" min="0.01" step="0.01" value={values.amount} onChange={set('amount')} />
            <SelectField label="Type" name="transactionType" value={values.transactionType} onChange={set('transactionType')}>
              <option value="credit">Credit</option>
              <option value="debit">Debit</option>
            </SelectField>
            <SelectField label="Account" name="account" value={values.account} onChange={set('account')}>
              <option value="checking">Checking</option>
              <option value="savings">Savings</option>
            </SelectField>
            <TextField label="Value date" name="date" type="date" value={values.date} onChange={set('date')} hint="The booking time is always now." />
          </div>
          <TextField
            label="Description"
            name="description"
            maxLength={500}
            value={values.description}
            onChange={set('description')}
            hint="Shown to the customer."
          />
          <TextAreaField
            label="Reason"
            name="reason"
            maxLength={500}
            rows={3}
            value={values.reason}
            onChange={set('reason')}
            hint="Required. Kept in the audit log, not shown to the customer."
          />
          {error ? <Alert tone="error">{error}</Alert> : null}
          {success ? <Alert tone="success">{success}</Alert> : null}
          <div className="flex flex-wrap items-center gap-4">
            <Button type="submit" disabled={busy}>
              {busy ? 'Posting...' : 'Add Transaction'}
            </Button>
            {values.userId ? (
              <Link to={paths.adminUserTransactions(values.userId)} className="text-sm font-semibold text-brand-800 hover:underline">
                View this customer’s transactions
              </Link>
            ) : null}
          </div>
        </form>
      </Card>
    </div>
  );
}
