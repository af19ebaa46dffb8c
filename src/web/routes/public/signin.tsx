import { SignInForm } from '../../features/auth/components/sign-in-form';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Login') }];
}

export default function SignInPage() {
  return (
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="mb-6 text-2xl font-bold text-slate-900">Login to Your Account</h1>
      <SignInForm />
    </div>
  );
}
