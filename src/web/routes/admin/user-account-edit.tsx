import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { ALL_FIELDS_REQUIRED, type AdminUserDto } from '../../../shared/contracts/admin';
import { ZAdminAccountUpdate, type AdminAccountUpdate } from '../../../shared/contracts/transactions';
import { TEXT_LENGTH_MAX } from '../../../shared/limits';
import { Alert } from '../../components/ui/alert';
import { Breadcrumb } from '../../components/ui/breadcrumb';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { AmountField, TextAreaField, TextField } from '../../components/ui/form';
import { adminUserQuery } from '../../features/admin/api';
import { updateAccount } from '../../features/ledger/api';
import { formatDollars } from '../../lib/format';
import { contractResolver, useFormAction, fieldError } from '../../lib/form';
import { useIdempotencyKey } from '../../lib/idempotency';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import type { Route } from './+types/user-account-edit';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';

export function meta() {
  return [{ title: staffPageTitle('Edit Account Info') }];
}

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminUserAccount');
  return prefetch(adminUserQuery(params.id));
}

type AccountValues = { [Field in keyof AdminAccountUpdate]: string };

/** New balances are posted as reasoned correction entries for the differences (DESIGN.md rule 4). */
function AccountForm({ user }: { user: AdminUserDto }) {
  const navigate = useNavigate();
  const idempotency = useIdempotencyKey();
  const form = useForm<AccountValues>({
    resolver: contractResolver(ZAdminAccountUpdate, { required: { fields: ['number', 'savings', 'checking'], message: ALL_FIELDS_REQUIRED } }),
    defaultValues: { number: user.account.number, savings: String(user.account.savings), checking: String(user.account.checking), reason: '' },
  });
  const { errors } = form.formState;
  const action = useFormAction(
    form,
    (values) => {
      const body = { number: values.number.trim(), savings: values.savings.trim(), checking: values.checking.trim(), reason: values.reason.trim() };
      return updateAccount(user._id, body, idempotency.keyFor(body));
    },
    {
      successToast: (message) => message,
      onSuccess: () => {
        idempotency.settle();
        navigate(paths.adminUser(user._id));
      },
      onError: (error) => idempotency.settle(error),
    },
  );
  return (
    <form onSubmit={action.submit} noValidate className="space-y-4" aria-label="Edit account">
      <p className="text-sm text-slate-700">
        Now: savings {formatDollars(user.account.savings)}, checking {formatDollars(user.account.checking)}.
      </p>
      <TextField label="Account number" inputMode="numeric" maxLength={10} {...fieldError(errors.number)} {...form.register('number')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <AmountField label="Savings (USD)" {...fieldError(errors.savings)} {...form.register('savings')} />
        <AmountField label="Checking (USD)" {...fieldError(errors.checking)} {...form.register('checking')} />
      </div>
      <TextAreaField
        label="Reason"
        rows={3}
        maxLength={TEXT_LENGTH_MAX}
        hint="Required. Kept in the audit log."
        {...fieldError(errors.reason)}
        {...form.register('reason')}
      />
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Saving...' : 'Save'}
      </Button>
    </form>
  );
}

export default function UserAccountEditPage() {
  const { id = '' } = useParams();
  const user = useQuery(adminUserQuery(id));
  const name = user.data ? `${user.data.firstName} ${user.data.lastName}` : 'Customer';
  return (
    <div className="max-w-2xl space-y-6">
      <Breadcrumb
        trail={[
          { label: 'Home', to: paths.adminDashboard },
          { label: 'Users', to: paths.adminUsers },
          { label: name, to: paths.adminUser(id) },
          { label: 'Edit Account Info' },
        ]}
      />
      <PageTitle subtitle="New balances are posted as correction entries against Operations adjustments for the differences; nothing is overwritten.">
        Edit Account Info
      </PageTitle>
      <Card>
        {user.isPending ? (
          <p className="text-slate-700">Loading…</p>
        ) : user.isError ? (
          <Alert tone="error">{user.error.message}</Alert>
        ) : (
          <AccountForm key={user.data._id} user={user.data} />
        )}
      </Card>
    </div>
  );
}
