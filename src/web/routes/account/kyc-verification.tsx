import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Card, PageTitle } from '../../components/ui/card';
import { KycForm } from '../../features/kyc/components/kyc-form';
import { useCurrentUser } from '../../lib/current-user';
import { paths } from '../../paths';
import { pageTitle } from '../../lib/title';

export function meta() {
  return [{ title: pageTitle('Complete Your Account Setup') }];
}

export default function KycVerificationPage() {
  const user = useCurrentUser();
  return (
    <div className="max-w-2xl">
      <PageTitle subtitle="Verify your identity to use every feature of your account. Each file may be at most 5 MB.">Complete Your Account Setup</PageTitle>
      {user.verificationStatus === 'verified' ? (
        <Alert tone="success">
          Your identity is verified.{' '}
          <Link to={paths.accountHome} className="font-semibold underline">
            Go to your dashboard
          </Link>
        </Alert>
      ) : user.verificationStatus === 'pending' ? (
        <Alert tone="info">Your documents are under review. We will email you when they have been checked.</Alert>
      ) : (
        <Card>
          {user.verificationStatus === 'failed' ? (
            <Alert tone="warning" className="mb-5">
              We could not verify your identity with the documents you sent (the reason is in our email). Please submit them again.
            </Alert>
          ) : null}
          <KycForm />
        </Card>
      )}
    </div>
  );
}
