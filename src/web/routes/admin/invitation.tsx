import { useEffect, useState } from 'react';
import { PageLink } from '../../components/ui/page-link';
import { AcceptInvitationForm } from '../../features/staff/components/accept-invitation-form';
import { staffPageTitle } from '../../lib/title';
import { paths } from '../../paths';

export function meta() {
  return [{ title: staffPageTitle('Set your staff password') }];
}

/** The emailed invitation's page (ADR 022): choose a password, then sign in and enrol a second factor. */
export default function StaffInvitationPage() {
  // The token is read after hydration: this page is prerendered without it.
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    setToken(new URLSearchParams(window.location.search).get('token'));
  }, []);
  return (
    <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">Set your staff password</h1>
      <p className="mb-6 mt-2 text-slate-700">
        {token
          ? 'You were invited to the back office. Choose a password; at your first sign-in you will set up a second factor.'
          : 'Open this page from the link in your invitation email.'}
      </p>
      {token ? <AcceptInvitationForm token={token} /> : null}
      <p className="mt-6 text-center text-sm">
        <PageLink to={paths.adminLogin} className="font-medium text-brand-800 hover:underline">
          Staff login
        </PageLink>
      </p>
    </div>
  );
}
