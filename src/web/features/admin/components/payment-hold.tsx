import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ZPaymentHoldRelease } from '../../../../shared/contracts/payment-holds';
import { TEXT_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api';
import { useInlineConfirmation } from '../../../lib/focus';
import { formatDate } from '../../../lib/format';
import { contractResolver, useFormAction, fieldError } from '../../../lib/form';
import { paymentHoldQuery, releasePaymentHold } from '../api';
import { ROLES, useStaffMay } from '../../../lib/staff-access';

/**
 * A customer's outgoing payments held after too many wrong transfer codes in a day (ADR 016):
 * until when, and a Release button that asks for the reason the audit log keeps.
 */
export function PaymentHold({ userId }: { userId: string }) {
  const may = useStaffMay();
  const { data, isPending, error } = useQuery(paymentHoldQuery(userId));
  const [releasing, setReleasing] = useState(false);
  const form = useForm<{ reason: string }>({ resolver: contractResolver(ZPaymentHoldRelease), defaultValues: { reason: '' } });
  const release = useFormAction(form, ({ reason }) => releasePaymentHold(userId, reason.trim()), {
    successToast: (message) => message ?? 'Outgoing payments released',
    onSuccess: () => {
      setReleasing(false);
      form.reset();
    },
  });
  // The reason field replaces the Release button: focus goes to it, as it would for a dialog; Escape
  // or Cancel puts it back on Release.
  const confirmation = useInlineConfirmation<HTMLFormElement>({ open: releasing, onCancel: () => setReleasing(false) });
  if (isPending) return <p role="status">Loading...</p>;
  if (error) return <Alert tone="error">{errorMessage(error)}</Alert>;
  const counted = `Failed payment approvals (wrong IMS codes, refused passkey answers) in the last 24 hours: ${data.wrongCodes} (a hold starts at ${data.wrongCodesPerDay}).`;
  if (!data.held || !data.heldUntil) return <p className="text-slate-700">Not on hold. {counted}</p>;
  return (
    <div className="space-y-4">
      <Alert tone="warning">
        Outgoing payments are on hold until <strong>{formatDate(data.heldUntil, 'dateTime')}</strong> after too many failed payment approvals (wrong IMS codes
        or refused passkey answers). Moves between the customer&apos;s own accounts still work.
      </Alert>
      <p className="text-slate-700">{counted}</p>
      {!may(ROLES.compliance) ? null : releasing ? (
        <form ref={confirmation.panel} onSubmit={release.submit} noValidate className="space-y-3">
          {release.error ? <Alert tone="error">{release.error.message}</Alert> : null}
          <TextField
            label="Reason for releasing"
            maxLength={TEXT_LENGTH_MAX}
            required
            hint="Kept in the audit log, e.g. the customer called and confirmed they mistyped the codes."
            {...fieldError(form.formState.errors.reason)}
            {...form.register('reason')}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={release.busy}>
              {release.busy ? 'Releasing...' : 'Release payments'}
            </Button>
            <Button variant="secondary" onClick={confirmation.cancel}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button ref={confirmation.opener} onClick={() => setReleasing(true)}>
          Release
        </Button>
      )}
    </div>
  );
}
