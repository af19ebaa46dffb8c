import type { ReactNode } from 'react';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { PaymentCodeStep } from '../../../components/ui/payment-code-step';
import type { Action } from '../../../lib/action';
import type { StepAnswer } from '../api';

/** Step 2 of a transfer or a wire: the summary and the IMS code the bank emailed for exactly this transfer. */
export function CodeStep({
  rows,
  notice,
  code,
  confirm,
  resend,
  onBack,
}: {
  rows: Array<[string, string]>;
  notice?: ReactNode;
  code: TransferCodeSent;
  confirm: Action<string, StepAnswer>;
  resend: Action<void, StepAnswer>;
  onBack: () => void;
}) {
  return (
    <PaymentCodeStep
      label="Confirm transfer"
      heading="Transfer summary"
      rows={rows}
      notice={notice}
      code={code}
      approves="works only for this transfer"
      submitLabel="Confirm Transfer"
      confirm={confirm}
      resend={resend}
      onBack={onBack}
    />
  );
}
