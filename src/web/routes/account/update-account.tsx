import { useQuery } from '@tanstack/react-query';
import { Card, PageTitle } from '../../components/ui/card';
import { factorSummaryQuery } from '../../features/factors/api/factor-summary';
import { stepUpWithPasskey } from '../../features/factors/api/step-up-passkey';
import { ProfileEditForm } from '../../features/profile/components/profile-edit-form';
import { ProfilePictureForm } from '../../features/profile/components/profile-picture-form';
import { useCurrentUser } from '../../lib/current-user';
import { prefetch } from '../../lib/query';

export function meta() {
  return [{ title: 'Edit Profile' }];
}

/** An email change asks for a fresh second factor when the account has one (ADR 025). */
export async function clientLoader() {
  return prefetch(factorSummaryQuery());
}

export default function UpdateAccountPage() {
  const user = useCurrentUser();
  const { data: factors } = useQuery(factorSummaryQuery());
  return (
    <div className="space-y-6">
      <PageTitle>Edit Profile</PageTitle>
      <Card>
        <ProfilePictureForm user={user} />
      </Card>
      <Card title="Your details">
        <ProfileEditForm key={user._id} user={user} factors={factors} stepUpWithPasskey={stepUpWithPasskey} />
      </Card>
    </div>
  );
}
