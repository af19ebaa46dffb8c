import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { OTP_LENGTH } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import { contractResolver, lazyContract, useFormAction } from '../../../lib/form';
import { homeFor, signInWithEmailCode } from '../api';

// The contract (and zod) loads with the step, not with the sign-in page (ADR 018).
const codeContract = lazyContract(() => import('../../../../shared/contracts/auth').then((contract) => contract.ZSecondFactorCodeRequest));

/**
 * The second step of a sign-in that needs a code emailed to the owner (the account had many failed
 * sign-ins): the ticket from the password step and the six digits from the mail.
 */
export function EmailCodeStep({ ticket, onRestart }: { ticket: string; onRestart: () => void }) {
  const navigate = useNavigate();
  const form = useForm<{ code: string }>({
    resolver: contractResolver(codeContract, { toInput: (values) => ({ ticket, code: values.code }) }),
    defaultValues: { code: '' },
  });
  const action = useFormAction(form, (values) => signInWithEmailCode({ ticket, code: values.code.trim() }), {
    refresh: false,
    onSuccess: (user) => navigate(homeFor(user), { replace: true }),
  });
  const code = form.register('code');
  // The password form (and the button that had the focus) is gone: keyboard and screen reader
  // users land on the field the step asks for.
  useEffect(() => form.setFocus('code'), [form]);
  return (
    <form method="post" onSubmit={action.submit} noValidate className="space-y-5">
      <Alert tone="info">
        There were many failed attempts to sign in to this account, so we emailed you a code to finish signing in. It is valid for 5 minutes.
      </Alert>
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <TextField
        label="Code from the email"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={OTP_LENGTH}
        className="text-center text-2xl tracking-[0.5em]"
        invalid={!!form.formState.errors.code}
        {...code}
        onChange={(event) => {
          event.target.value = event.target.value.replace(/\D/g, '');
          void code.onChange(event);
        }}
      />
      <Button type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Loading...' : 'Continue'}
      </Button>
      <button type="button" onClick={onRestart} className="text-sm font-medium text-brand-800 hover:underline">
        Start again
      </button>
    </form>
  );
}
