import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { ALL_FIELDS_REQUIRED } from '../../../shared/contracts/admin';
import { ZAdminTransactionRequest, type AdminTransactionRequest } from '../../../shared/contracts/transactions';
import { todayIso } from '../../../shared/dates';
import { TEXT_LENGTH_MAX } from '../../../shared/limits';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { AmountField, SelectField, TextAreaField, TextField } from '../../components/ui/form';
import { customerOptionsQuery } from '../../features/admin/api';
import { addAdminTransaction } from '../../features/ledger/api';
import { errorMessage } from '../../lib/api';
import { contractResolver, useFormAction, fieldError } from '../../lib/form';
import { useIdempotencyKey } from '../../lib/idempotency';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';

export function meta() {
  return [{ title: staffPageTitle('Add Transaction') }];
}

export async function clientLoader() {
  await requireStaffPage('adminAddTransaction');
  return prefetch(customerOptionsQuery());
}

/** POST /transaction/admin/{userId}'s body as the form holds it, with the customer it is for. */
type EntryValues = { userId: string } & { [Field in keyof AdminTransactionRequest]-?: string };

export default function AddTransactionPage() {
  const [params] = useSearchParams();
  const customers = useQuery(customerOptionsQuery());
  const idempotency = useIdempotencyKey();
  const form = useForm<EntryValues>({
    resolver: contractResolver(ZAdminTransactionRequest, {
      required: { fields: ['userId', 'amount', 'transactionType', 'date', 'description'], message: ALL_FIELDS_REQUIRED },
    }),
    defaultValues: {
      userId: params.get('userId') ?? '',
      amount: '',
      transactionType: 'credit',
      date: todayIso(),
      description: '',
      reason: '',
      account: 'checking',
    },
  });
  const { errors } = form.formState;
  const action = useFormAction(
    form,
    ({ userId, ...values }) => {
      const body = {
        amount: values.amount.trim(),
        transactionType: values.transactionType as AdminTransactionRequest['transactionType'],
        date: values.date,
        description: values.description.trim(),
        reason: values.reason.trim(),
        account: values.account as AdminTransactionRequest['account'],
      };
      return addAdminTransaction(userId, body, idempotency.keyFor({ userId, ...body }));
    },
    {
      // The server's message: 'Transaction added successfully' when posted; with four eyes, what was
      // asked, 'Credit requested - awaiting approval by a second staff member' (nothing is posted yet).
      successToast: (result) => result.message,
      errorToast: 'Error adding transaction',
      errorText: (error) => `Error adding transaction: ${errorMessage(error)}`,
      onSuccess: (_result, values) => {
        idempotency.settle();
        form.reset({ ...values, amount: '', description: '', reason: '' });
      },
      onError: (error) => idempotency.settle(error),
    },
  );
  const userId = form.watch('userId');

  return (
    <div className="max-w-2xl">
      <PageTitle subtitle="Posts a reasoned adjustment against Operations adjustments. The customer sees it as an adjustment with its real booking time.">
        Add Transaction
      </PageTitle>
      <Card>
        <form onSubmit={action.submit} noValidate className="space-y-4" aria-label="Add transaction">
          <SelectField label="Customer" {...fieldError(errors.userId)} {...form.register('userId')}>
            <option value="">{customers.isPending ? 'Loading customers…' : 'Choose a customer'}</option>
            {(customers.data ?? []).map((customer) => (
              <option key={customer._id} value={customer._id}>
                {customer.firstName} {customer.lastName} ({customer.email}){customer.accountNumber ? ` · ${customer.accountNumber}` : ''}
              </option>
            ))}
          </SelectField>
          {customers.isError ? <Alert tone="error">{customers.error.message}</Alert> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <AmountField label="Amount (USD)" {...fieldError(errors.amount)} {...form.register('amount')} />
            <SelectField label="Type" {...fieldError(errors.transactionType)} {...form.register('transactionType')}>
              <option value="credit">Credit</option>
              <option value="debit">Debit</option>
            </SelectField>
            <SelectField label="Account" {...fieldError(errors.account)} {...form.register('account')}>
              <option value="checking">Checking</option>
              <option value="savings">Savings</option>
            </SelectField>
            <TextField label="Value date" type="date" hint="The booking time is always now." {...fieldError(errors.date)} {...form.register('date')} />
          </div>
          <TextField
            label="Description"
            maxLength={TEXT_LENGTH_MAX}
            hint="Shown to the customer."
            {...fieldError(errors.description)}
            {...form.register('description')}
          />
          <TextAreaField
            label="Reason"
            maxLength={TEXT_LENGTH_MAX}
            rows={3}
            hint="Required. Kept in the audit log, not shown to the customer."
            {...fieldError(errors.reason)}
            {...form.register('reason')}
          />
          {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
          {action.done && action.result ? <Alert tone="success">{action.result.message}</Alert> : null}
          <div className="flex flex-wrap items-center gap-4">
            <Button type="submit" disabled={action.busy}>
              {action.busy ? 'Posting...' : 'Add Transaction'}
            </Button>
            {userId ? (
              <Link to={paths.adminUserTransactions(userId)} className="text-sm font-semibold text-brand-800 hover:underline">
                View this customer’s transactions
              </Link>
            ) : null}
          </div>
        </form>
      </Card>
    </div>
  );
}
