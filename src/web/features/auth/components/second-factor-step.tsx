import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  type SecondFactorChallenge,
  type SecondFactorMethodName,
  TICKET_EXHAUSTED_MESSAGE,
  TICKET_INVALID_MESSAGE,
  ZEmailCodeSignInRequest,
  ZRecoverySignInRequest,
  ZTotpSignInRequest,
} from '../../../../shared/contracts/factors';
import type { UserDto } from '../../../../shared/contracts/user';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import { useAction } from '../../../lib/action';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { type CodeMethod, resendSignInCode, signInWithCode, signInWithPasskey } from '../second-factor-api';

/** The methods in the order the step offers them: the strongest first, recovery codes last. */
const ORDER: SecondFactorMethodName[] = ['passkey', 'totp', 'email', 'recovery'];
const LABELS: Record<SecondFactorMethodName, string> = {
  passkey: 'Passkey',
  totp: 'Authenticator app',
  email: 'Code sent by email',
  recovery: 'Recovery code',
};

/** What each code field says, and the contract its form checks against (the route's own). */
const CODE_FIELDS: Record<
  Exclude<SecondFactorMethodName, 'passkey'>,
  { path: CodeMethod; label: string; hint: string; schema: z.ZodType; numeric: boolean }
> = {
  totp: {
    path: 'totp',
    label: 'Authenticator code',
    hint: 'The 6-digit code your authenticator app shows now.',
    schema: ZTotpSignInRequest,
    numeric: true,
  },
  email: {
    path: 'email-code',
    label: 'Emailed code',
    hint: 'We emailed you a 6-digit code. It works once, for this sign-in.',
    schema: ZEmailCodeSignInRequest,
    numeric: true,
  },
  recovery: {
    path: 'recovery',
    label: 'Recovery code',
    hint: 'One of the codes you saved when you set up your authenticator app. Each works once.',
    schema: ZRecoverySignInRequest,
    numeric: false,
  },
};

/** A ticket that no longer works: the only way on is to sign in again. */
const isOver = (message: string | undefined) => message === TICKET_INVALID_MESSAGE || message === TICKET_EXHAUSTED_MESSAGE;

/**
 * The sign-in's second step (ADR 011): the password was right and the account has a second factor.
 * The user picks one of the ticket's methods (when it offers several) and proves it; a ticket
 * that expired or ran out of tries sends them back to the password.
 */
export function SecondFactorStep({
  challenge,
  admin,
  onSignedIn,
  onRestart,
}: {
  challenge: SecondFactorChallenge;
  admin: boolean;
  onSignedIn: (user: UserDto) => void;
  onRestart: () => void;
}) {
  const methods = ORDER.filter((method) => challenge.methods.includes(method));
  const [method, setMethod] = useState<SecondFactorMethodName>(methods[0] ?? 'totp');
  const heading = useRef<HTMLHeadingElement>(null);
  // A ticket offering only the emailed code comes from the throttle of ADR 016 (many failed
  // sign-ins), not from a factor of the account: it says so, and the focus goes to the code field.
  const emailOnly = methods.length === 1 && methods[0] === 'email';
  // Otherwise the step replaces the password form: the focus moves to its heading, as after a page change.
  useEffect(() => {
    if (!emailOnly) heading.current?.focus();
  }, [emailOnly]);

  return (
    <div className="space-y-5">
      <div>
        <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          Confirm it&apos;s you
        </h2>
        <p className="text-sm text-slate-700">
          {emailOnly
            ? 'There were many failed attempts to sign in to this account, so we emailed you a code to finish signing in. It is valid for 5 minutes.'
            : 'Your password was right. Your account has a second factor: use it to finish signing in.'}
        </p>
      </div>
      {methods.length > 1 ? (
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Confirm with</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {methods.map((option) => (
              <label
                key={option}
                className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm text-slate-900 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="second-factor-method"
                  value={option}
                  checked={method === option}
                  onChange={() => setMethod(option)}
                  className="h-4 w-4"
                />
                {LABELS[option]}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {method === 'passkey' ? (
        <PasskeyStep ticket={challenge.ticket} admin={admin} onSignedIn={onSignedIn} onRestart={onRestart} />
      ) : (
        <CodeStep key={method} method={method} ticket={challenge.ticket} admin={admin} focus={emailOnly} onSignedIn={onSignedIn} onRestart={onRestart} />
      )}
      <button
        type="button"
        onClick={onRestart}
        className="text-sm font-medium text-brand-800 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      >
        Back to email and password
      </button>
    </div>
  );
}

function Refusal({ message, onRestart }: { message: string; onRestart: () => void }) {
  return (
    <Alert tone="error">
      {message}
      {isOver(message) ? (
        <>
          {' '}
          <button type="button" onClick={onRestart} className="font-semibold underline">
            Sign in again
          </button>
        </>
      ) : null}
    </Alert>
  );
}

function PasskeyStep({ ticket, admin, onSignedIn, onRestart }: { ticket: string; admin: boolean; onSignedIn: (user: UserDto) => void; onRestart: () => void }) {
  const action = useAction(() => signInWithPasskey(ticket, admin), { refresh: false, onSuccess: onSignedIn });
  return (
    <div className="space-y-3">
      {action.error ? <Refusal message={action.error.message} onRestart={onRestart} /> : null}
      <p className="text-sm text-slate-700">Your browser will ask for your passkey (your device&apos;s fingerprint, face or PIN).</p>
      <Button className="w-full" disabled={action.busy} onClick={() => void action.run()}>
        {action.busy ? 'Waiting for your passkey...' : 'Use my passkey'}
      </Button>
    </div>
  );
}

function CodeStep({
  method,
  ticket,
  admin,
  focus,
  onSignedIn,
  onRestart,
}: {
  method: Exclude<SecondFactorMethodName, 'passkey'>;
  ticket: string;
  admin: boolean;
  /** Put the focus in the code field (the step's only field when the ticket offers one method). */
  focus: boolean;
  onSignedIn: (user: UserDto) => void;
  onRestart: () => void;
}) {
  const field = CODE_FIELDS[method];
  const form = useForm<{ code: string }>({
    resolver: contractResolver(field.schema, { toInput: (values: { code: string }) => ({ ticket, code: values.code }) }),
    defaultValues: { code: '' },
  });
  const action = useFormAction(form, (values) => signInWithCode(field.path, ticket, values.code, admin), { refresh: false, onSuccess: onSignedIn });
  const resend = useAction(() => resendSignInCode(ticket, admin), { refresh: false });
  useEffect(() => {
    if (focus) form.setFocus('code');
  }, [focus, form]);
  return (
    <form method="post" onSubmit={action.submit} noValidate className="space-y-4">
      {action.error ? <Refusal message={action.error.message} onRestart={onRestart} /> : null}
      <TextField
        label={field.label}
        hint={field.hint}
        inputMode={field.numeric ? 'numeric' : 'text'}
        autoComplete={field.numeric ? 'one-time-code' : 'off'}
        autoCapitalize="off"
        spellCheck={false}
        maxLength={field.numeric ? 7 : 24}
        required
        {...fieldError(form.formState.errors.code)}
        {...form.register('code')}
      />
      <Button type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Checking...' : 'Verify'}
      </Button>
      {method === 'email' ? (
        <div className="space-y-2">
          <Button variant="secondary" className="w-full" disabled={resend.busy} onClick={() => void resend.run()}>
            {resend.busy ? 'Sending...' : 'Email me a new code'}
          </Button>
          {resend.done ? <Alert tone="success">{resend.result ?? 'We emailed you a new code.'}</Alert> : null}
          {resend.error ? <Alert tone="error">{resend.error.message}</Alert> : null}
        </div>
      ) : null}
    </form>
  );
}
