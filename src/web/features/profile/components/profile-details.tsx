import { Link } from 'react-router';
import type { UserDto } from '../../../../shared/contracts/user';
import { Avatar } from '../../../components/layout/avatar';
import { buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../paths';

const STATUS_LABELS: Record<UserDto['verificationStatus'], { label: string; className: string }> = {
  awaiting: { label: 'Not verified yet', className: 'bg-amber-100 text-amber-900' },
  pending: { label: 'Under review', className: 'bg-sky-100 text-sky-900' },
  verified: { label: 'Verified', className: 'bg-green-100 text-green-900' },
  failed: { label: 'Verification failed', className: 'bg-red-100 text-red-900' },
};

export function VerificationBadge({ status }: { status: UserDto['verificationStatus'] }) {
  const { label, className } = STATUS_LABELS[status];
  return <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${className}`}>{label}</span>;
}

/** The customer's profile as the bank holds it (spec: Profile view, Account Info). */
export function ProfileDetails({ user }: { user: UserDto }) {
  const rows: Array<[string, string]> = [
    ['First name', user.firstName],
    ['Last name', user.lastName],
    ['Email', user.email],
    ['Phone', user.phone || '-'],
    ['Address', user.location.address || '-'],
    ['State', user.location.state || '-'],
    ['Account number', user.account.number || '-'],
    ['Customer since', formatDate(user.createdAt)],
  ];
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Card className="flex flex-col items-center text-center">
        <Avatar firstName={user.firstName} lastName={user.lastName} url={user.profilePicture?.url} size={96} />
        <p className="mt-3 text-lg font-semibold text-slate-900">
          {user.firstName} {user.lastName}
        </p>
        <p className="text-sm text-slate-700 [overflow-wrap:anywhere]">{user.email}</p>
        <p className="mt-3">
          <VerificationBadge status={user.verificationStatus} />
        </p>
        {user.verificationStatus === 'awaiting' || user.verificationStatus === 'failed' ? (
          <Link to={paths.accountKyc} className={buttonClass('primary', 'mt-4')}>
            Verify Account
          </Link>
        ) : null}
      </Card>
      <Card
        title="Personal details"
        className="lg:col-span-2"
        actions={
          <Link to={paths.accountUpdateAccount} className="text-sm font-semibold text-brand-800 hover:underline">
            Edit Profile
          </Link>
        }
      >
        <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2">
          {rows.map(([term, value]) => (
            <div key={term}>
              <dt className="text-sm text-slate-700">{term}</dt>
              <dd className="font-medium break-words text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
    </div>
  );
}
