import { PageTitle } from '../../components/ui/card';
import { mySessionsQuery } from '../../features/auth/sessions-api';
import { Sessions } from '../../features/auth/sessions';
import { factorSummaryQuery } from '../../features/factors/api/factor-summary';
import { passkeysQuery } from '../../features/factors/api/passkeys';
import { SecondFactors } from '../../features/factors/components/second-factors';
import { myRecoveryQuery } from '../../features/recovery/api/my-recovery';
import { PendingRecovery } from '../../features/recovery/components/pending-recovery';
import { prefetch } from '../../lib/query';

export function clientLoader() {
  return prefetch(mySessionsQuery(), factorSummaryQuery(), passkeysQuery(), myRecoveryQuery());
}

export function meta() {
  return [{ title: 'Security' }];
}

export default function SecurityPage() {
  return (
    <div className="space-y-8">
      <PageTitle subtitle="How you sign in, and where you are signed in.">Security</PageTitle>
      <PendingRecovery />
      <SecondFactors />
      <Sessions />
    </div>
  );
}
