import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { TransactionDto, TransferCodeSent } from '../../../shared/contracts/transactions';
import { useAction, type ActionOptions } from '../../lib/action';
import { useFormAction } from '../../lib/form';
import { useIdempotencyKey } from '../../lib/idempotency';
import type { StepAnswer } from './api';

/**
 * The steps shared by every outgoing transfer: the form's call emails an IMS code and shows the
 * summary; the call with the code posts it ('Transfer Successful'). Each submit gets its own
 * Idempotency-Key, reused only when that same submit is retried after a network or server failure.
 */
export function useCodedTransfer<Values extends FieldValues, Request>(
  form: UseFormReturn<Values>,
  toRequest: (values: Values, paymentPin?: string) => Request,
  send: (request: Request, idempotencyKey: string) => Promise<StepAnswer>,
  onDone: (line: TransactionDto, values: Values) => void,
) {
  const [code, setCode] = useState<TransferCodeSent | null>(null);
  const idempotency = useIdempotencyKey();
  const call = (values: Values, paymentPin?: string) => {
    const request = toRequest(values, paymentPin);
    return send(request, idempotency.keyFor(request));
  };
  const options = (codeToast?: string): ActionOptions<unknown, StepAnswer> => ({
    successToast: (answer) => (answer.kind === 'done' ? 'Transfer Successful' : codeToast),
    onSuccess: (answer) => {
      idempotency.settle();
      if (answer.kind === 'code') setCode(answer.code);
      else onDone(answer.line, form.getValues());
    },
    onError: (error) => idempotency.settle(error),
  });
  const start = useFormAction(form, (values) => call(values), options());
  const confirm = useAction((paymentPin: string) => call(form.getValues(), paymentPin), options());
  const resend = useAction(() => call(form.getValues()), options('We emailed you a new IMS code'));
  const back = () => {
    setCode(null);
    start.reset();
    confirm.reset();
    resend.reset();
  };
  return { code, start, confirm, resend, back };
}
