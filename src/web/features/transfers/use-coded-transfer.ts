import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { PasskeyApprovalStep } from '../../../shared/contracts/payment-approval';
import type { TransactionDto, TransferCodeSent } from '../../../shared/contracts/transactions';
import { useAction, type ActionOptions } from '../../lib/action';
import { useFormAction } from '../../lib/form';
import { useIdempotencyKey } from '../../lib/idempotency';
import type { ApprovalFields, PasskeyAssertion } from '../../lib/passkey-approval';
import type { StepAnswer } from './api';

/**
 * The steps shared by every outgoing transfer: the form's call answers the approval step (an
 * emailed IMS code, or a passkey challenge derived from the transfer when the customer has a
 * passkey; ADR 024); the call with the code or the passkey's answer posts it ('Transfer
 * Successful'). Each submit gets its own Idempotency-Key, reused only when that same submit is
 * retried after a network or server failure.
 */
export function useCodedTransfer<Values extends FieldValues, Request>(
  form: UseFormReturn<Values>,
  toRequest: (values: Values, approval?: ApprovalFields) => Request,
  send: (request: Request, idempotencyKey: string) => Promise<StepAnswer>,
  onDone: (line: TransactionDto, values: Values) => void,
) {
  const [code, setCode] = useState<TransferCodeSent | null>(null);
  const [passkey, setPasskey] = useState<PasskeyApprovalStep | null>(null);
  const idempotency = useIdempotencyKey();
  const call = (values: Values, approval?: ApprovalFields) => {
    const request = toRequest(values, approval);
    return send(request, idempotency.keyFor(request));
  };
  const options = (codeToast?: string): ActionOptions<unknown, StepAnswer> => ({
    successToast: (answer) => (answer.kind === 'done' ? 'Transfer Successful' : answer.kind === 'code' ? codeToast : undefined),
    onSuccess: (answer) => {
      idempotency.settle();
      if (answer.kind === 'code') {
        setPasskey(null);
        setCode(answer.code);
      } else if (answer.kind === 'passkey') setPasskey(answer.step);
      else onDone(answer.line, form.getValues());
    },
    onError: (error) => idempotency.settle(error),
  });
  const start = useFormAction(form, (values) => call(values), options());
  const confirm = useAction((paymentPin: string) => call(form.getValues(), { paymentPin }), options());
  const resend = useAction(() => call(form.getValues(), passkey || code ? { approval: 'code' } : undefined), options('We emailed you a new IMS code'));
  const approve = useAction((passkeyAssertion: PasskeyAssertion) => call(form.getValues(), { passkeyAssertion }), options());
  const useCode = useAction(() => call(form.getValues(), { approval: 'code' }), options('We emailed you an IMS code'));
  const back = () => {
    setCode(null);
    setPasskey(null);
    start.reset();
    confirm.reset();
    resend.reset();
    approve.reset();
    useCode.reset();
  };
  return { code, passkey, start, confirm, resend, approve, useCode, back };
}
