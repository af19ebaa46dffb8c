import { useQuery } from '@tanstack/react-query';
import { Card, PageTitle } from '../../components/ui/card';
import { factorSummaryQuery } from '../../features/factors/api/factor-summary';
import { stepUpWithPasskey } from '../../features/factors/api/step-up-passkey';
import { PasswordForm } from '../../features/profile/components/password-form';
import { prefetch } from '../../lib/query';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Update Password') }];
}

/** The form asks for a fresh second factor when the account has one (ADR 011). */
export async function clientLoader() {
  return prefetch(factorSummaryQuery());
}

export default function UpdatePasswordPage() {
  const { data: factors } = useQuery(factorSummaryQuery());
  return (
    <div>
      <PageTitle>Update Password</PageTitle>
      <Card>
        <PasswordForm factors={factors} stepUpWithPasskey={stepUpWithPasskey} />
      </Card>
    </div>
  );
}
