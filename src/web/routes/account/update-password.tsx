import { Card, PageTitle } from '../../components/ui/card';
import { PasswordForm } from '../../features/profile/components/password-form';

export function meta() {
  return [{ title: 'Update Password' }];
}

export default function UpdatePasswordPage() {
  return (
    <div>
      <PageTitle>Update Password</PageTitle>
      <Card>
        <PasswordForm />
      </Card>
    </div>
  );
}
