import type { ReactNode, Ref } from 'react';
import { ZAdminReversalRequest } from '../../../../shared/contracts/transactions';
import { ReasonForm } from '../../../components/ui/reason-form';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { reverseTransaction } from '../api';

/**
 * Staff reverse an entry: nothing is erased, a new entry cancels it, with the reason they give
 * (audited). A ReasonForm standing in for the button that opened it (useInlineConfirmation:
 * Escape or Cancel return there). `question` heads the form where the button did not already ask it.
 */
export function ReversalForm({
  entryId,
  question,
  explanation,
  className = '',
  onDone,
  onCancel,
  ref,
}: {
  entryId: string;
  question?: ReactNode;
  explanation: ReactNode;
  className?: string;
  onDone: () => void;
  onCancel: () => void;
  ref: Ref<HTMLFormElement>;
}) {
  const idempotency = useIdempotencyKey();
  const send = async (reason: string) => {
    try {
      const message = await reverseTransaction(entryId, reason, idempotency.keyFor({ entry: entryId, reason }));
      idempotency.settle();
      return message;
    } catch (error) {
      idempotency.settle(error);
      throw error;
    }
  };
  return (
    <ReasonForm
      ref={ref}
      formLabel="Confirm reversal"
      label="Reason"
      hint="Recorded with the reversal and in the audit log."
      schema={ZAdminReversalRequest}
      intro={
        <>
          {question ? <p className="font-semibold text-slate-900">{question}</p> : null}
          <p className="text-sm text-slate-700">{explanation}</p>
        </>
      }
      submitLabel="Yes, reverse it"
      busyLabel="Reversing..."
      className={`space-y-3 ${className}`}
      send={send}
      onSent={onDone}
      onCancel={onCancel}
    />
  );
}
