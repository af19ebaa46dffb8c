import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PasswordField, TextField } from '../../components/ui/form';
import { errorMessage } from '../../lib/api';
import { homeFor, signIn } from './api';
import { useTimedMessage } from './use-timed-message';
import { paths } from '../../paths';

export function SignInForm({ admin = false }: { admin?: boolean }) {
  const navigate = useNavigate();
  const location = useLocation();
  // Read after hydration: the prerendered page has no navigation state.
  const [notice, setNotice] = useState<string | undefined>();
  useEffect(() => setNotice((location.state as { notice?: string } | null)?.notice), [location.state]);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useTimedMessage(3000);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError('Please fill in all fields');
      return;
    }
    setBusy(true);
    try {
      const user = await signIn(email.trim(), password, admin);
      navigate(homeFor(user), { replace: true });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    // method="post": a submit before the scripts have loaded must never put the password in the address.
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5">
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        required
        maxLength={254}
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
        maxLength={128}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Loading...' : 'Login'}
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
