import { useState, type FormEvent } from 'react';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import { formatDate } from '../../../lib/format';

/** Step 2 of a transfer: the summary and the IMS code the bank emailed for exactly this transfer. */
export function CodeStep({
  rows,
  code,
  busy,
  error,
  onBack,
  onConfirm,
  onResend,
}: {
  rows: Array<[string, string]>;
  code: TransferCodeSent;
  busy: boolean;
  error: string | null;
  onBack: () => void;
  onConfirm: (pin: string) => void;
  onResend: () => void;
}) {
  const [pin, setPin] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pin.trim()) {
      setLocalError('Please enter IMS code');
      return;
    }
    setLocalError(null);
    onConfirm(pin.trim());
  };
  const expires = formatDate(code.expiresAt, 'time');
  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Confirm transfer">
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
        name="paymentPin"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={pin}
        onChange={(event) => setPin(event.target.value.replace(/\D/g, ''))}
        error={localError ?? undefined}
        hint={`We emailed a 6-digit IMS code to ${code.sentTo}. It is free, valid until ${expires}, and works only for this transfer. Nobody from the bank will ever ask you for it.`}
      />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Sending...' : 'Confirm Transfer'}
        </Button>
        <Button variant="ghost" onClick={onResend} disabled={busy}>
          Send a new code
        </Button>
      </div>
    </form>
  );
}
