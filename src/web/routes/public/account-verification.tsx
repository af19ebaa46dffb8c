import { Link } from 'react-router';

export function meta() {
  return [{ title: 'Account verification' }];
}

// Placeholder: customer services (issue 5) writes this page.
export default function AccountVerification() {
  return (
    <div className="w-full max-w-md rounded-xl bg-white p-8 shadow">
      <h1 className="text-2xl font-bold">Verify your account</h1>
      <p className="mt-2 text-slate-700">Complete identity verification to use every feature of your account.</p>
      <Link className="mt-4 inline-block font-semibold text-brand-800 underline" to="/account/kyc-verification">
        Start verification
      </Link>
    </div>
  );
}
