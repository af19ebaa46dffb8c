import { lazy, Suspense, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { PASSWORD_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { EmailField, PasswordField } from '../../../components/ui/form';
import { contractResolver, lazyContract, useFormAction, fieldError } from '../../../lib/form';
import { paths } from '../../../paths';
import type { SecondFactorChallenge } from '../../../../shared/contracts/factors';
import type { UserDto } from '../../../../shared/contracts/user';
import { useAction } from '../../../lib/action';
import { destinationAfterSignIn, signIn } from '../api';
import { signInWithPasskey } from '../second-factor-api';

// The second step (its code forms and their contracts) is for accounts with a factor only: it loads
// when the form is first used, so the sign-in page's first download stays within its script budget.
const loadSecondFactorStep = () => import('./second-factor-step');
const SecondFactorStep = lazy(() => loadSecondFactorStep().then((module) => ({ default: module.SecondFactorStep })));

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
  // An account with a second factor answers a ticket: the second step replaces this form (ADR 011).
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const signedIn = (user: UserDto) => navigate(destinationAfterSignIn(user, window.location.search), { replace: true });
  // The spec: a failed sign-in shows its message for 3 s.
  const action = useFormAction(form, (values) => signIn({ email: values.email.trim(), password: values.password }, admin), {
    errorMs: 3000,
    refresh: false,
    onSuccess: (result) => ('user' in result ? signedIn(result.user) : setChallenge(result.secondFactor)),
  });
  const passkey = useAction(() => signInWithPasskey(undefined, admin), { refresh: false, onSuccess: signedIn });

  if (challenge) {
    return (
      <Suspense fallback={<p role="status">Loading the second step...</p>}>
        <SecondFactorStep
          challenge={challenge}
          admin={admin}
          onSignedIn={signedIn}
          onRestart={() => {
            setChallenge(null);
            form.setValue('password', '');
          }}
        />
      </Suspense>
    );
  }

  return (
    // method="post": a submit before the scripts have loaded must never put the password in the address.
    <form
      method="post"
      onSubmit={action.submit}
      onFocus={() => {
        signInContract.preload();
        loadSecondFactorStep().catch(() => undefined);
      }}
      noValidate
      className="space-y-5"
    >
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <EmailField autoComplete="username" {...fieldError(errors.email)} {...form.register('email')} />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        required
        maxLength={PASSWORD_LENGTH_MAX}
        {...fieldError(errors.password)}
        {...form.register('password')}
      />
      <Button type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Loading...' : 'Login'}
      </Button>
      <div className="space-y-2">
        <p className="text-center text-sm text-slate-600">or, if you added a passkey</p>
        {passkey.error ? <Alert tone="error">{passkey.error.message}</Alert> : null}
        <Button variant="secondary" className="w-full" disabled={passkey.busy} onClick={() => void passkey.run()}>
          {passkey.busy ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
        </Button>
      </div>
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
