import { type Ref, useState } from 'react';
import type { PaymentRequestDto } from '../../../../shared/contracts/payment-requests';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/form';
import { useAction } from '../../../lib/action';
import { useCurrentUser } from '../../../lib/current-user';
import { formatDollars } from '../../../lib/format';
import { useIdempotencyKey } from '../../../lib/idempotency';
import type { ApprovalFields, PasskeyAssertion } from '../../../lib/passkey-approval';
import { PasskeyApproval } from '../../../components/ui/passkey-approval';
import { PaymentCodeStep } from '../../../components/ui/payment-code-step';
import type { PasskeyApprovalStep } from '../../../../shared/contracts/payment-approval';
import { payPaymentRequest, type PayAnswer } from '../api/pay-payment-request';

/**
 * Paying a request, with the payer's own approval as a transfer has it: choose the account, the
 * bank emails an IMS code for exactly this payment, the code pays it.
 */
export function PayRequest({
  request,
  onDone,
  onCancel,
  ref,
}: {
  request: PaymentRequestDto;
  onDone: () => void;
  onCancel: () => void;
  /** The panel: focus moves into it when it opens (useInlineConfirmation). */
  ref?: Ref<HTMLDivElement>;
}) {
  const user = useCurrentUser();
  const [from, setFrom] = useState<'savings' | 'checking'>('checking');
  const [code, setCode] = useState<TransferCodeSent | null>(null);
  const [passkey, setPasskey] = useState<PasskeyApprovalStep | null>(null);
  const idempotency = useIdempotencyKey();
  const call = (approval: ApprovalFields = {}) => {
    const body = { from, ...approval };
    return payPaymentRequest(request.id, body, idempotency.keyFor({ id: request.id, ...body }));
  };
  const options = {
    onSuccess: (answer: PayAnswer) => {
      idempotency.settle();
      if (answer.kind === 'code') {
        setPasskey(null);
        setCode(answer.code);
      } else if (answer.kind === 'passkey') setPasskey(answer.step);
      else onDone();
    },
    onError: (error: unknown) => idempotency.settle(error),
    successToast: (answer: PayAnswer) => (answer.kind === 'done' ? answer.message : undefined),
  };
  // Asking for the code changes nothing on screen: no refresh.
  const start = useAction(() => call(), { ...options, refresh: false });
  const confirm = useAction((paymentPin: string) => call({ paymentPin }), options);
  const approve = useAction((passkeyAssertion: PasskeyAssertion) => call({ passkeyAssertion }), options);
  const useCode = useAction(() => call({ approval: 'code' }), { ...options, refresh: false });
  const resend = useAction(() => call({ approval: 'code' }), { ...options, refresh: false, successToast: () => 'We emailed you a new IMS code' });
  const busy = start.busy || confirm.busy;
  const error = confirm.error ?? start.error;
  const balance = user.account[from];

  return (
    <div ref={ref} className="mt-3 space-y-4 rounded-lg border border-brand-200 bg-brand-50 p-4">
      {passkey ? (
        <PasskeyApproval
          step={passkey}
          noun="payment"
          rows={[['From', `${from === 'savings' ? 'Savings' : 'Checking'} (${user.account.number})`]]}
          approve={approve}
          useCode={useCode}
          onBack={() => {
            setPasskey(null);
            approve.reset();
            useCode.reset();
          }}
        />
      ) : code ? (
        <PaymentCodeStep
          label={`Confirm payment to ${request.counterparty}`}
          rows={[
            ['Amount', formatDollars(request.amount)],
            ['From', `${from === 'savings' ? 'Savings' : 'Checking'} (${user.account.number})`],
            ['To', code.payee],
          ]}
          code={code}
          approves="works only for this payment"
          submitLabel="Confirm payment"
          busyLabel="Paying..."
          confirm={confirm}
          resend={resend}
          onBack={() => {
            setCode(null);
            confirm.reset();
          }}
        />
      ) : (
        <div className="space-y-4">
          <SelectField label="Pay from" value={from} onChange={(event) => setFrom(event.target.value as 'savings' | 'checking')}>
            <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
            <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
          </SelectField>
          {balance < request.amount ? <Alert tone="warning">Your {from} balance is below this amount.</Alert> : null}
          {error ? <Alert tone="error">{error.message}</Alert> : null}
          <div className="flex flex-wrap gap-3">
            <Button onClick={() => void start.run()} disabled={busy}>
              {start.busy ? 'Sending code...' : 'Continue'}
            </Button>
            <Button variant="secondary" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
