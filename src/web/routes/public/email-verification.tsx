import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { UserDto } from '../../../shared/contracts/user';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/form';
import { rememberUser } from '../../features/auth/api';
import { api, errorMessage } from '../../lib/api';
import { paths } from '../../paths';

export function meta() {
  return [{ title: 'Verify your email' }];
}

export default function EmailVerificationPage() {
  const navigate = useNavigate();
  const [otp, setOtp] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setNotice('');
    if (otp.trim().length !== 6) {
      setError('OTP must be 6 characters long');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const { data } = await api.post<UserDto>('/auth/verify-email', { otp: otp.trim() });
      rememberUser(data);
      navigate(paths.accountHome, { replace: true });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    setError('');
    setNotice('');
    try {
      await api.post('/auth/resend-otp');
      setNotice('Email sent successfully');
    } catch (caught) {
      const message = errorMessage(caught);
      setError(message === 'An error occurred' ? 'Failed to send email' : message);
    }
  }

  return (
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">Verify your email</h1>
      <p className="mb-6 mt-2 text-slate-700">We emailed you a 6-digit code. Enter it below; it is valid for 10 minutes.</p>
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        <TextField
          label="Verification code"
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={otp}
          onChange={(event) => setOtp(event.target.value.replace(/\D/g, ''))}
          className="text-center text-2xl tracking-[0.5em]"
        />
        <Button type="submit" className="w-full" disabled={busy}>
          {busy ? 'Loading...' : 'Verify'}
        </Button>
      </form>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-2 text-sm">
        <button type="button" onClick={resend} className="font-medium text-brand-800 hover:underline">
          Resend code
        </button>
        <p>
          Don&apos;t have an account?{' '}
          <Link to={paths.signup} className="font-medium text-brand-800 hover:underline">
            Sign up
          </Link>
        </p>
      </div>
    </div>
  );
}
