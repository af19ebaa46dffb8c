import { EmailVerificationForm } from '../../features/auth/components/email-verification-form';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Verify your email') }];
}

export default function EmailVerificationPage() {
  return (
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">Verify your email</h1>
      <p className="mb-6 mt-2 text-slate-700">We emailed you a 6-digit code. Enter it below; it is valid for 10 minutes.</p>
      <EmailVerificationForm />
    </div>
  );
}
