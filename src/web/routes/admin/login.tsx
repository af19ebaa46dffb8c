import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { staffPageTitle } from '../../lib/title';
import { STAFF_ONLY_PARAM } from '../../lib/return-to';
import { paths } from '../../paths';

export function meta() {
  return [{ title: staffPageTitle('Staff login') }];
}

export default function AdminLoginPage() {
  // Read after hydration: the prerendered page has no query.
  const [staffOnly, setStaffOnly] = useState(false);
  useEffect(() => setStaffOnly(new URLSearchParams(window.location.search).has(STAFF_ONLY_PARAM)), []);
  return (
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="mb-2 text-2xl font-bold text-slate-900">Staff Login</h1>
      <p className="mb-6 text-sm text-slate-600">Back office access for bank staff only.</p>
      {staffOnly ? (
        <Alert tone="info" className="mb-6">
          The back office is for bank staff only. Sign in with a staff account, or go back to{' '}
          <Link to={paths.accountHome} className="font-medium underline">
            your accounts
          </Link>
          .
        </Alert>
      ) : null}
      <SignInForm admin />
    </div>
  );
}
