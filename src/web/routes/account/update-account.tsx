import { Card, PageTitle } from '../../components/ui/card';
import { ProfileEditForm } from '../../features/profile/components/profile-edit-form';
import { ProfilePictureForm } from '../../features/profile/components/profile-picture-form';
import { useCurrentUser } from '../../lib/current-user';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Edit Profile') }];
}

export default function UpdateAccountPage() {
  const user = useCurrentUser();
  return (
    <div className="space-y-6">
      <PageTitle>Edit Profile</PageTitle>
      <Card>
        <ProfilePictureForm user={user} />
      </Card>
      <Card title="Your details">
        <ProfileEditForm key={user._id} user={user} />
      </Card>
    </div>
  );
}
