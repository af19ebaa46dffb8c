import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PageTitle } from '../../components/ui/card';
import { factorSummaryQuery } from '../../features/factors/api/factor-summary';
import { passkeysQuery } from '../../features/factors/api/passkeys';
import { SecondFactors } from '../../features/factors/components/second-factors';
import { queryClient } from '../../lib/query';
import { paths } from '../../paths';
import { staffPageTitle } from '../../lib/title';

// Not `prefetch()`: a staff member who must enrol first may not read their own user record yet.
export async function clientLoader() {
  await Promise.all([queryClient.prefetchQuery(factorSummaryQuery()), queryClient.prefetchQuery(passkeysQuery())]);
  return null;
}

export function meta() {
  return [{ title: staffPageTitle('Security') }];
}

/**
 * The staff member's second factors. Staff must have one: without it, this is the only page of the
 * back office (the layout sends every other one here), and it says why.
 */
export default function AdminSecurityPage() {
  const { data } = useQuery(factorSummaryQuery());
  const mustEnrol = data?.enrolmentRequired ?? false;
  const hasFactor = data ? data.passkeys > 0 || data.totp : false;
  return (
    <div className="space-y-6">
      <PageTitle subtitle="How you sign in to the back office.">Security</PageTitle>
      {mustEnrol ? (
        <Alert tone="warning">
          <strong>Set up a second factor to continue.</strong> Staff sign in with a password and a second factor: add a passkey or an authenticator app below.
          Until then, nothing else in the back office is open to you.
        </Alert>
      ) : null}
      <SecondFactors staff />
      {hasFactor ? <ContinueLink /> : null}
    </div>
  );
}

/** After enrolling, the back office opens: a full load, so the frame is built again with every page. */
function ContinueLink() {
  return (
    <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
      <Button onClick={() => window.location.assign(paths.adminDashboard)}>Go to the dashboard</Button>
    </div>
  );
}
