import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { IDENTITY_CHECK_LENGTH_MAX, type RecoveryStartInput, ZRecoveryStart } from '../../../../shared/contracts/recovery';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form';
import { useAction } from '../../../lib/action';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { customerRecoveryQuery, startRecovery, withdrawRecovery } from '../api/customer-recovery';
import { ROLES, useStaffMay } from '../../../lib/staff-access';

const STATUS_TEXT = { pending: 'Pending', cancelled: 'Cancelled', completed: 'Completed' } as const;
const CANCELLED_VIA = { link: 'by the customer, from the emailed link', session: 'by the customer, signed in', staff: 'by staff' } as const;

/**
 * The user page's support recovery (ADR 025): for a customer who lost every second factor and
 * recovery code. Staff record how they checked the customer's identity and start it; it takes
 * effect 24 hours later unless the customer (emailed at once) cancels it.
 */
export function CustomerRecovery({ userId }: { userId: string }) {
  const may = useStaffMay();
  const { data, isPending, error } = useQuery(customerRecoveryQuery(userId));
  const form = useForm<RecoveryStartInput>({ resolver: contractResolver(ZRecoveryStart), defaultValues: { identityCheck: '' } });
  const start = useFormAction(form, ({ identityCheck }) => startRecovery(userId, identityCheck.trim()), {
    successToast: (message) => message,
    onSuccess: () => form.reset(),
  });
  const withdraw = useAction(() => withdrawRecovery(userId), { successToast: (message) => message, errorToast: true });
  if (isPending) return <p role="status">Loading...</p>;
  if (error) return <Alert tone="error">{errorMessage(error)}</Alert>;
  return (
    <div className="space-y-4">
      {data ? (
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]" aria-label="Latest recovery">
          <dt className="font-medium text-slate-700">Status</dt>
          <dd className="text-slate-900">
            {STATUS_TEXT[data.status]}
            {data.status === 'cancelled' && data.cancelledVia ? ` ${CANCELLED_VIA[data.cancelledVia]}` : ''}
          </dd>
          <dt className="font-medium text-slate-700">Started</dt>
          <dd className="text-slate-900">
            {formatDate(data.createdAt, 'dateTime')}
            {data.startedBy ? ` by ${data.startedBy}` : ''}
          </dd>
          <dt className="font-medium text-slate-700">{data.status === 'completed' ? 'Took effect' : 'Takes effect'}</dt>
          <dd className="text-slate-900">{formatDate(data.completedAt ?? data.effectiveAt, 'dateTime')}</dd>
          <dt className="font-medium text-slate-700">Identity check</dt>
          <dd className="whitespace-pre-wrap break-words text-slate-900">{data.identityCheck}</dd>
        </dl>
      ) : (
        <p className="text-sm text-slate-700">No recovery has been started for this customer.</p>
      )}
      {!may(ROLES.customerService) ? null : data?.status === 'pending' ? (
        <Button variant="secondary" disabled={withdraw.busy} onClick={() => void withdraw.run()}>
          Withdraw the recovery
        </Button>
      ) : (
        <form onSubmit={start.submit} noValidate className="space-y-3">
          <p className="text-sm text-slate-700">
            For a customer who lost every passkey, authenticator app and recovery code. After 24 hours their second factors are removed and every session ends;
            they are emailed now and can cancel it until then.
          </p>
          {start.error ? <Alert tone="error">{start.error.message}</Alert> : null}
          <TextAreaField
            label="How you checked their identity"
            hint="Required, and kept in the audit log: e.g. video call, passport matched the KYC photo."
            rows={3}
            maxLength={IDENTITY_CHECK_LENGTH_MAX}
            required
            {...fieldError(form.formState.errors.identityCheck)}
            {...form.register('identityCheck')}
          />
          <Button type="submit" variant="danger" disabled={start.busy}>
            {start.busy ? 'Starting...' : 'Start recovery'}
          </Button>
        </form>
      )}
    </div>
  );
}
