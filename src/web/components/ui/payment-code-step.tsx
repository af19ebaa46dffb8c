import { useEffect, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ZPaymentPin } from '../../../shared/contracts/transactions';
import { OTP_LENGTH } from '../../../shared/limits';
import type { Action } from '../../lib/action';
import { formatDate } from '../../lib/format';
import { contractResolver } from '../../lib/form';
import { Alert } from './alert';
import { Button } from './button';
import { TextField } from './form';

// The IMS code as every payment contract takes it: 'Please enter IMS code', then six digits.
const ZCode = z.object({ paymentPin: ZPaymentPin });

/** From how few codes left in the hour the step says so (ADR 016: TRANSFER_CODES_PER_HOUR). */
const CODES_LEFT_TOLD = 2;

/** Going back and continuing again asks for a new code too: the customer learns it before the last one. */
const codesLeftText = (left: number) =>
  left === 0
    ? 'This is the last IMS code we can send you this hour: going back to change the payment, or asking for a new code, will have to wait.'
    : `We can send you ${left} more IMS code${left === 1 ? '' : 's'} this hour, counting a new one after going back to change the payment.`;

/**
 * The approval step of a payment by emailed code (a transfer, a wire, a standing order's mandate, a
 * bulk batch): the summary of exactly what the code approves, the IMS code, Back, the submit and
 * "Send a new code". The passkey's step is `PasskeyApproval`.
 */
export function PaymentCodeStep({
  label,
  heading,
  headingLevel = 2,
  rows,
  notice,
  code,
  approves,
  submitLabel,
  busyLabel = 'Sending...',
  confirm,
  resend,
  onBack,
}: {
  /** The form's accessible name, e.g. "Confirm transfer". */
  label: string;
  /** Omitted where the step sits inside a card that already says what it is. */
  heading?: string;
  headingLevel?: 2 | 3;
  rows: Array<[string, string]>;
  /** Shown under the summary, before the code: what the bank found about the payee (ADR 029). */
  notice?: ReactNode;
  /** `codesLeft`: how many more the hour allows (absent where the bank does not limit them). */
  code: { sentTo: string; expiresAt: string; codesLeft?: number | undefined };
  /** What the code works for, ending the hint: "works only for this transfer". */
  approves: string;
  submitLabel: string;
  busyLabel?: string;
  confirm: Action<string, unknown>;
  resend: Action<void, unknown>;
  onBack: () => void;
}) {
  const form = useForm<{ paymentPin: string }>({
    resolver: contractResolver(ZCode, { required: { fields: ['paymentPin'], message: 'Please enter IMS code' } }),
    defaultValues: { paymentPin: '' },
  });
  const pin = form.register('paymentPin');
  // The bank's answer to a code ("The IMS code is not correct. 4 attempts left.") was about the code
  // that was in the field: it goes as soon as the customer changes it, and when the next one is
  // refused here before it is sent, so the field's own message ("The IMS code is 6 digits") is the
  // only one on screen. The answer names no field, so `fieldChanged` would keep it.
  const { reset: forgetAnswer } = confirm;
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (name === 'paymentPin') forgetAnswer();
    });
    return () => subscription.unsubscribe();
  }, [form, forgetAnswer]);
  const busy = confirm.busy || resend.busy;
  const error = confirm.error ?? resend.error;
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <form
      onSubmit={form.handleSubmit(
        ({ paymentPin }) => void confirm.run(paymentPin.trim()),
        () => forgetAnswer(),
      )}
      noValidate
      className="space-y-5"
      aria-label={label}
    >
      {heading ? <Heading className="text-lg font-semibold text-slate-900">{heading}</Heading> : null}
      <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {rows.map(([term, value]) => (
          <div key={term} className="flex flex-wrap justify-between gap-2 px-4 py-2">
            <dt className="text-sm text-slate-700">{term}</dt>
            <dd className="font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {notice}
      <TextField
        label="IMS code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={OTP_LENGTH}
        error={form.formState.errors.paymentPin?.message}
        hint={`We emailed a 6-digit IMS code to ${code.sentTo}. It is free, valid until ${formatDate(code.expiresAt, 'time')}, and ${approves}. Nobody from the bank will ever ask you for it.`}
        {...pin}
        onChange={(event) => {
          event.target.value = event.target.value.replace(/\D/g, '');
          void pin.onChange(event);
        }}
      />
      <div aria-live="polite">{error ? <Alert tone="error">{error.message}</Alert> : null}</div>
      {code.codesLeft !== undefined && code.codesLeft <= CODES_LEFT_TOLD ? <p className="text-sm text-slate-700">{codesLeftText(code.codesLeft)}</p> : null}
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? busyLabel : submitLabel}
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
