import { useId, type ReactNode } from 'react';
import type { PasskeyApprovalStep } from '../../../shared/contracts/payment-approval';
import type { Action } from '../../lib/action';
import { formatDate, formatDollars } from '../../lib/format';
import { approveWithPasskey, type PasskeyAssertion } from '../../lib/passkey-approval';
import { Alert } from './alert';
import { Button } from './button';

/**
 * The approval step of a payment for a customer with a passkey (ADR 024): what the passkey will
 * approve, as the server derived its challenge from it (amount, payee, description; the caller adds
 * its own rows, such as the account it leaves or a schedule), "Approve with passkey", and the
 * emailed IMS code as the fallback.
 */
export function PasskeyApproval({
  step,
  noun,
  rows = [],
  notice,
  approve,
  useCode,
  onBack,
}: {
  step: PasskeyApprovalStep;
  /** "transfer", "payment", "standing order", "bulk payment". */
  noun: string;
  rows?: Array<[string, string]>;
  /** Shown under the summary: what the bank found about the payee (ADR 029). */
  notice?: ReactNode;
  approve: Action<PasskeyAssertion, unknown>;
  useCode: Action<void, unknown>;
  onBack: () => void;
}) {
  const headingId = useId();
  const busy = approve.busy || useCode.busy;
  const error = approve.error ?? useCode.error;
  const summary: Array<[string, string]> = [
    ['Amount', `${formatDollars(step.amount)} ${step.currency}`],
    ['To', step.payee],
    ...rows,
    ...(step.description ? [['Description', step.description] as [string, string]] : []),
  ];
  const run = async () => {
    useCode.reset();
    approve.reset();
    try {
      await approve.run(await approveWithPasskey(step));
    } catch (failure) {
      approve.fail({ message: failure instanceof Error ? failure.message : 'The passkey did not answer.' });
    }
  };
  return (
    <section className="space-y-5" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Approve this {noun}
      </h2>
      <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label={`The ${noun} you are approving`}>
        {summary.map(([label, value]) => (
          <div key={label} className="flex flex-wrap justify-between gap-2 px-4 py-2">
            <dt className="text-sm text-slate-700">{label}</dt>
            <dd className="font-medium break-words text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {notice}
      <p className="text-sm text-slate-700">
        Your passkey approves exactly this {noun}: the amount, the payee and the description above. If any of them changes, the bank refuses it. The approval is
        valid until {formatDate(step.expiresAt, 'time')}.
      </p>
      {error ? <Alert tone="error">{error.message}</Alert> : null}
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button onClick={() => void run()} disabled={busy}>
          {approve.busy ? 'Approving...' : 'Approve with passkey'}
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            approve.reset();
            void useCode.run();
          }}
          disabled={busy}
        >
          {useCode.busy ? 'Sending...' : 'Email me a code instead'}
        </Button>
      </div>
    </section>
  );
}
