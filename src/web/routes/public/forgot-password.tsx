import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PasswordField, TextField } from '../../components/ui/form';
import { api, errorMessage } from '../../lib/api';
import { paths } from '../../paths';

export function meta() {
  return [{ title: 'Reset your password' }];
}

function RequestLink() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) return setMessage({ tone: 'error', text: 'Please enter your email' });
    setBusy(true);
    try {
      const response = await api.post('/auth/forgot-password', { email: email.trim() }, { redirectOn401: false });
      setMessage({ tone: 'success', text: response.message ?? 'Check your email for a reset link.' });
    } catch (caught) {
      setMessage({ tone: 'error', text: errorMessage(caught) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        required
        maxLength={254}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Loading...' : 'Send reset link'}
      </Button>
    </form>
  );
}

function ChooseNewPassword({ token }: { token: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (password !== confirmPassword) return setError('Passwords do not match');
    setBusy(true);
    setError('');
    try {
      const response = await api.post('/auth/reset-password', { token, password, confirmPassword }, { redirectOn401: false });
      navigate(paths.signin, { replace: true, state: { notice: response.message } });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }
  return (
    // method="post": a submit before the scripts have loaded must never put the password in the address.
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <PasswordField
        label="New password"
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        hint="At least 8 characters; common passwords are refused."
        maxLength={128}
      />
      <PasswordField
        label="Confirm new password"
        name="confirmPassword"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(event) => setConfirmPassword(event.target.value)}
        maxLength={128}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Loading...' : 'Set new password'}
      </Button>
    </form>
  );
}

export default function ForgotPasswordPage() {
  // The token is read after hydration: this page is prerendered without it.
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    setToken(new URLSearchParams(window.location.search).get('token'));
  }, []);
  return (
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">{token ? 'Choose a new password' : 'Forgot your password?'}</h1>
      <p className="mb-6 mt-2 text-slate-700">
        {token
          ? 'The link works once and for 30 minutes. Signing in again is needed on every device afterwards.'
          : 'Enter your email and we will send you a link to reset your password.'}
      </p>
      {token ? <ChooseNewPassword token={token} /> : <RequestLink />}
      <p className="mt-6 text-center text-sm">
        <Link to={paths.signin} className="font-medium text-brand-800 hover:underline">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}
