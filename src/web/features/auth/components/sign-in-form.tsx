import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { EMAIL_LENGTH_MAX, PASSWORD_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField, TextField } from '../../../components/ui/form';
import { contractResolver, lazyContract, useFormAction } from '../../../lib/form';
import { paths } from '../../../paths';
import { homeFor, signIn } from '../api';
import { EmailCodeStep } from './email-code-step';

interface SignInValues {
  email: string;
  password: string;
}

// The contract (and zod) loads at the form's first focus: the sign-in page's first download stays small.
const signInContract = lazyContract(() => import('../../../../shared/contracts/auth').then((contract) => contract.ZSignInRequest));

export function SignInForm({ admin = false }: { admin?: boolean }) {
  const navigate = useNavigate();
  const location = useLocation();
  // Read after hydration: the prerendered page has no navigation state.
  const [notice, setNotice] = useState<string | undefined>();
  useEffect(() => setNotice((location.state as { notice?: string } | null)?.notice), [location.state]);
  const form = useForm<SignInValues>({ resolver: contractResolver(signInContract), defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;
  // A second step the server asked for (an emailed code): its ticket.
  const [ticket, setTicket] = useState<string | null>(null);
  // The spec: a failed sign-in shows its message for 3 s.
  const action = useFormAction(form, (values) => signIn({ email: values.email.trim(), password: values.password }, admin), {
    errorMs: 3000,
    refresh: false,
    onSuccess: (result) => {
      if ('secondFactor' in result) setTicket(result.secondFactor.ticket);
      else void navigate(homeFor(result.user), { replace: true });
    },
  });

  if (ticket) {
    return (
      <EmailCodeStep
        ticket={ticket}
        onRestart={() => {
          setTicket(null);
          form.reset({ email: form.getValues('email'), password: '' });
        }}
      />
    );
  }
  return (
    // method="post": a submit before the scripts have loaded must never put the password in the address.
    <form method="post" onSubmit={action.submit} onFocus={signInContract.preload} noValidate className="space-y-5">
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <TextField
        label="Email"
        type="email"
        autoComplete="username"
        required
        maxLength={EMAIL_LENGTH_MAX}
        invalid={!!errors.email}
        {...form.register('email')}
      />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        required
        maxLength={PASSWORD_LENGTH_MAX}
        invalid={!!errors.password}
        {...form.register('password')}
      />
      <Button type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Loading...' : 'Login'}
      </Button>
      {!admin ? (
        <div className="flex flex-wrap justify-between gap-2 text-sm">
          <Link to={paths.forgotPassword} className="font-medium text-brand-800 hover:underline">
            Forgot password?
          </Link>
          <p>
            Don&apos;t have an account?{' '}
            <Link to={paths.signup} className="font-medium text-brand-800 hover:underline">
              Sign up
            </Link>
          </p>
        </div>
      ) : null}
    </form>
  );
}
