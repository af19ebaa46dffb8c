import { useEffect, useState } from 'react';
import { ChooseNewPasswordForm, RequestResetLinkForm } from '../../features/auth/components/password-reset-forms';
import { PageLink } from '../../components/ui/page-link';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Reset your password') }];
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
      {token ? <ChooseNewPasswordForm token={token} /> : <RequestResetLinkForm />}
      <p className="mt-6 text-center text-sm">
        <PageLink to="/signin" className="font-medium text-brand-800 hover:underline">
          Back to sign in
        </PageLink>
      </p>
    </div>
  );
}
