import { PageTitle } from '../../components/ui/card';
import { ProfileDetails } from '../../features/profile/components/profile-details';
import { useCurrentUser } from '../../lib/current-user';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Profile') }];
}

export default function ProfilePage() {
  const user = useCurrentUser();
  return (
    <div>
      <PageTitle>Profile</PageTitle>
      <ProfileDetails user={user} />
    </div>
  );
}
