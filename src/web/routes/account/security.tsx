import { PageTitle } from '../../components/ui/card';
import { mySessionsQuery } from '../../features/auth/sessions-api';
import { Sessions } from '../../features/auth/sessions';
import { prefetch } from '../../lib/query';

export function clientLoader() {
  return prefetch(mySessionsQuery());
}

export function meta() {
  return [{ title: 'Security' }];
}

export default function SecurityPage() {
  return (
    <div className="space-y-8">
      <PageTitle subtitle="How you sign in, and where you are signed in.">Security</PageTitle>
      <Sessions />
    </div>
  );
}
