import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
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
 *
 * The step is an entry in the browser's history (the same address, marked in its state): the
 * browser's Back on the step returns to the filled-in form, as the step's own Back does, instead of
 * leaving the page and the code just emailed.
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
  const location = useLocation();
  const navigate = useNavigate();
  const onStepEntry = (location.state as { approvalStep?: boolean } | null)?.approvalStep === true;
  // This page's address: the step's history entry and the form's are both on it.
  const here = { pathname: location.pathname, search: location.search, hash: location.hash };
  const call = (values: Values, approval?: ApprovalFields) => {
    const request = toRequest(values, approval);
    return send(request, idempotency.keyFor(request));
  };
  const options = (codeToast?: string, fromForm = false): ActionOptions<unknown, ApprovalStepAnswer<Done>> => ({
    successToast: (answer) => (answer.kind === 'done' ? answer.message : answer.kind === 'code' ? codeToast : undefined),
    onSuccess: (answer) => {
      idempotency.settle();
      // From the form to a step: a history entry of its own, which Back leaves.
      if (fromForm && answer.kind !== 'done' && !onStepEntry) {
        void navigate(here, { state: { approvalStep: true } });
      }
      if (answer.kind === 'code') {
        setPasskey(null);
        setCode(answer.code);
      } else if (answer.kind === 'passkey') setPasskey(answer.step);
      else {
        setCode(null);
        setPasskey(null);
        // Made: the step's entry becomes the page's again (Back from what follows does not return to a spent step).
        if (onStepEntry) void navigate(here, { replace: true, state: null });
        onDone(answer, form.getValues());
      }
    },
    onError: (error) => idempotency.settle(error),
  });
  const start = useFormAction(form, (values) => call(values), options(undefined, true));
  const confirm = useAction((paymentPin: string) => call(form.getValues(), { paymentPin }), options());
  const resend = useAction(() => call(form.getValues(), { approval: 'code' }), options('We emailed you a new IMS code'));
  const approve = useAction((passkeyAssertion: PasskeyAssertion) => call(form.getValues(), { passkeyAssertion }), options());
  const useCode = useAction(() => call(form.getValues(), { approval: 'code' }), options('We emailed you an IMS code'));
  const reset = () => {
    setCode(null);
    setPasskey(null);
    start.reset();
    confirm.reset();
    resend.reset();
    approve.reset();
    useCode.reset();
  };
  const stepShown = code !== null || passkey !== null;
  // The browser's Back (or Forward) to the form's entry while a step shows: the form, as it was filled in.
  useEffect(() => {
    if (!onStepEntry && stepShown) reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a move between history entries resets
  }, [onStepEntry]);
  const back = () => {
    reset();
    if (onStepEntry) void navigate(-1);
  };
  return { code, passkey, start, confirm, resend, approve, useCode, back };
}
