import { SignInForm } from '../../features/auth/components/sign-in-form';
import { staffPageTitle } from '../../lib/title';

export function meta() {
  return [{ title: staffPageTitle('Staff login') }];
}

export default function AdminLoginPage() {
  return (
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="mb-2 text-2xl font-bold text-slate-900">Staff Login</h1>
      <p className="mb-6 text-sm text-slate-600">Back office access for bank staff only.</p>
      <SignInForm admin />
    </div>
  );
}
