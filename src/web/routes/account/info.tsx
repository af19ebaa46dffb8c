import { PageTitle } from '../../components/ui/card';
import { ProfileDetails } from '../../features/profile/components/profile-details';
import { useCurrentUser } from '../../lib/current-user';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Account information') }];
}

export default function AccountInfoPage() {
  const user = useCurrentUser();
  return (
    <div>
      <PageTitle subtitle="Your details and account number as the bank holds them.">Account information</PageTitle>
      <ProfileDetails user={user} />
    </div>
  );
}
