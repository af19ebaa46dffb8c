import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { ZTransferRequest, type TransferCodeSent } from '../../../../shared/contracts/transactions';
import { OTP_LENGTH } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import type { Action } from '../../../lib/action';
import { formatDate } from '../../../lib/format';
import { contractResolver } from '../../../lib/form';
import type { StepAnswer } from '../api';

// The IMS code as both transfer contracts take it: 'Please enter IMS code', then six digits.
const ZCode = ZTransferRequest.pick({ paymentPin: true });

/** Step 2 of a transfer: the summary and the IMS code the bank emailed for exactly this transfer. */
export function CodeStep({
  rows,
  code,
  confirm,
  resend,
  onBack,
}: {
  rows: Array<[string, string]>;
  code: TransferCodeSent;
  confirm: Action<string, StepAnswer>;
  resend: Action<void, StepAnswer>;
  onBack: () => void;
}) {
  const form = useForm<{ paymentPin: string }>({ resolver: contractResolver(ZCode), defaultValues: { paymentPin: '' } });
  const pin = form.register('paymentPin');
  // A refused code clears as soon as the customer types another.
  const { fieldChanged } = confirm;
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name) fieldChanged(name);
    });
    return () => subscription.unsubscribe();
  }, [form, fieldChanged]);
  const busy = confirm.busy || resend.busy;
  const error = confirm.error ?? resend.error;
  const expires = formatDate(code.expiresAt, 'time');
  return (
    <form onSubmit={form.handleSubmit(({ paymentPin }) => void confirm.run(paymentPin.trim()))} noValidate className="space-y-5" aria-label="Confirm transfer">
      <h2 className="text-lg font-semibold text-slate-900">Transfer summary</h2>
      <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-wrap justify-between gap-2 px-4 py-2">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <TextField
        label="IMS code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={OTP_LENGTH}
        error={form.formState.errors.paymentPin?.message}
        hint={`We emailed a 6-digit IMS code to ${code.sentTo}. It is free, valid until ${expires}, and works only for this transfer. Nobody from the bank will ever ask you for it.`}
        {...pin}
        onChange={(event) => {
          event.target.value = event.target.value.replace(/\D/g, '');
          void pin.onChange(event);
        }}
      />
      {error ? <Alert tone="error">{error.message}</Alert> : null}
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Sending...' : 'Confirm Transfer'}
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            form.reset({ paymentPin: '' });
            confirm.reset();
            void resend.run();
          }}
          disabled={busy}
        >
          Send a new code
        </Button>
      </div>
    </form>
  );
}
