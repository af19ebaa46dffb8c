import { Breadcrumb } from '../../components/ui/breadcrumb';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { TextAreaField, TextField } from '../../components/ui/form';
import { staffUserQuery, updateAccount } from '../../features/ledger/api';
import { formatDollars } from '../../lib/format';
import { useIdempotencyKey } from '../../lib/idempotency';
import { errorMessage } from '../../lib/api';
import { queryClient } from '../../lib/query';
import { BANK_NAME } from '../../lib/settings';
import { paths } from '../../paths';

export function meta() {
  return [{ title: `Edit Account Info | ${BANK_NAME}` }];
}

export default function UserAccountEditPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const user = useQuery(staffUserQuery(id));
  const [values, setValues] = useState({ number: '', savings: '', checking: '', reason: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const idempotency = useIdempotencyKey();

  useEffect(() => {
    if (user.data)
      setValues((current) => ({
        ...current,
        number: user.data.account.number,
        savings: String(user.data.account.savings),
        checking: String(user.data.account.checking),
      }));
  }, [user.data]);

  const set = (name: keyof typeof values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!values.number.trim() || !values.savings.trim() || !values.checking.trim()) return setError('All fields are required');
    if (values.reason.trim().length < 3) return setError('A reason is required (at least 3 characters)');
    const body = { number: values.number.trim(), savings: values.savings.trim(), checking: values.checking.trim(), reason: values.reason.trim() };
    setBusy(true);
    setError(null);
    try {
      const message = await updateAccount(id, body, idempotency.keyFor(body));
      idempotency.settle();
      toast.success(message);
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
      navigate(paths.adminUser(id));
    } catch (failure) {
      idempotency.settle(failure);
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

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
          <form onSubmit={submit} noValidate className="space-y-4" aria-label="Edit account">
            <p className="text-sm text-slate-700">
              Now: savings {formatDollars(user.data.account.savings)}, checking {formatDollars(user.data.account.checking)}.
            </p>
            <TextField label="Account number" name="number" inputMode="numeric" maxLength={10} value={values.number} onChange={set('number')} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Savings (USD)" name="savings" type="number" min="0" step="0.01" value={values.savings} onChange={set('savings')} />
              <TextField label="Checking (USD)" name="checking" type="number" min="0" step="0.01" value={values.checking} onChange={set('checking')} />
            </div>
            <TextAreaField
              label="Reason"
              name="reason"
              rows={3}
              maxLength={500}
              value={values.reason}
              onChange={set('reason')}
              hint="Required. Kept in the audit log."
            />
            {error ? <Alert tone="error">{error}</Alert> : null}
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving...' : 'Save'}
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}
