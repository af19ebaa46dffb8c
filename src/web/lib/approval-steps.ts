import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { PasskeyApprovalStep } from '../../shared/contracts/payment-approval';
import type { TransferCodeSent } from '../../shared/contracts/transactions';
import { useAction, type ActionOptions } from './action';
import { useFormAction } from './form';
import { useIdempotencyKey } from './idempotency';
import type { ApprovalFields, PasskeyAssertion } from './passkey-approval';

/**
 * What a payment call answers (ADR 024): the approval step it asks for (an emailed IMS code, or a
 * passkey challenge derived from the payment), or, once approved, what it made (`Done`).
 */
export type ApprovalStepAnswer<Done extends object, Code = TransferCodeSent> =
  { kind: 'code'; code: Code; message: string } | { kind: 'passkey'; step: PasskeyApprovalStep; message: string } | ({ kind: 'done'; message: string } & Done);

/**
 * Reads a payment call's answer: a step, or what it made, which `done` names (its parameter's type
 * says what the call makes); `doneMessage` when the answer carries no message.
 */
export function approvalStepOf<Made, Done extends object, Code = TransferCodeSent>(
  answer: { data: unknown; message?: string },
  done: (made: Made) => Done,
  doneMessage: string,
): ApprovalStepAnswer<Done, Code> {
  const { data } = answer;
  const step = typeof data === 'object' && data !== null && 'step' in data ? data.step : undefined;
  if (step === 'code') return { kind: 'code', code: data as Code, message: answer.message ?? '' };
  if (step === 'passkey') return { kind: 'passkey', step: data as PasskeyApprovalStep, message: answer.message ?? '' };
  return { kind: 'done', message: answer.message ?? doneMessage, ...done(data as Made) };
}

/**
 * The steps of every payment a form makes (a transfer, a wire, a standing order): the form's call
 * answers the approval step; the call with the code or the passkey's answer makes it, and its
 * message is the toast. "Use an IMS code instead" and "Send a new code" ask for a code. Each submit
 * gets its own Idempotency-Key, reused only when that same submit is retried after a network or
 * server failure. `back` returns to the form (so does a payment made, before `onDone`).
 */
export function useApprovalSteps<Values extends FieldValues, Request, Done extends object>(
  form: UseFormReturn<Values>,
  toRequest: (values: Values, approval?: ApprovalFields) => Request,
  send: (request: Request, idempotencyKey: string) => Promise<ApprovalStepAnswer<Done>>,
  onDone: (done: Done, values: Values) => void,
) {
  const [code, setCode] = useState<TransferCodeSent | null>(null);
  const [passkey, setPasskey] = useState<PasskeyApprovalStep | null>(null);
  const idempotency = useIdempotencyKey();
  const call = (values: Values, approval?: ApprovalFields) => {
    const request = toRequest(values, approval);
    return send(request, idempotency.keyFor(request));
  };
  const options = (codeToast?: string): ActionOptions<unknown, ApprovalStepAnswer<Done>> => ({
    successToast: (answer) => (answer.kind === 'done' ? answer.message : answer.kind === 'code' ? codeToast : undefined),
    onSuccess: (answer) => {
      idempotency.settle();
      if (answer.kind === 'code') {
        setPasskey(null);
        setCode(answer.code);
      } else if (answer.kind === 'passkey') setPasskey(answer.step);
      else {
        setCode(null);
        setPasskey(null);
        onDone(answer, form.getValues());
      }
    },
    onError: (error) => idempotency.settle(error),
  });
  const start = useFormAction(form, (values) => call(values), options());
  const confirm = useAction((paymentPin: string) => call(form.getValues(), { paymentPin }), options());
  const resend = useAction(() => call(form.getValues(), { approval: 'code' }), options('We emailed you a new IMS code'));
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
