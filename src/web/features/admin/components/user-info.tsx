import type { ReactNode } from 'react';
import type { AdminUserDto } from '../../../../shared/contracts/admin';
import { formatDate, formatDollars } from '../../../lib/format';
import { formatPhone } from '../../../lib/phone';
import { EmailAddress } from '../../../components/ui/email-address';

const STATUS_TEXT: Record<string, string> = { awaiting: 'Awaiting', pending: 'Pending review', verified: 'Verified', failed: 'Failed' };

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-3 py-2">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className="col-span-2 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

export function BasicInfo({ user }: { user: AdminUserDto }) {
  return (
    <dl className="divide-y divide-slate-100">
      <Row label="First name">{user.firstName}</Row>
      <Row label="Last name">{user.lastName}</Row>
      <Row label="Email">
        <EmailAddress value={user.email} /> {user.isEmailConfirmed ? '(confirmed)' : '(not confirmed)'}
      </Row>
      <Row label="Phone">{user.phone ? formatPhone(user.phone) : '—'}</Row>
      <Row label="Address">{user.location.address || '—'}</Row>
      <Row label="State">{user.location.state || '—'}</Row>
      <Row label="Verification">{STATUS_TEXT[user.verificationStatus] ?? user.verificationStatus}</Row>
      <Row label="Blocked">{yesNo(user.isBlocked)}</Row>
      <Row label="Disabled">{yesNo(user.isAccountDisabled)}</Row>
      <Row label="Role">{user.isAdmin ? 'Admin' : 'Customer'}</Row>
      <Row label="Joined">{formatDate(user.createdAt, 'dateTime')}</Row>
      {user.closedAt ? <Row label="Closed">{formatDate(user.closedAt, 'dateTime')}</Row> : null}
    </dl>
  );
}

export function AccountInfo({ user }: { user: AdminUserDto }) {
  if (user.isAdmin) return <p className="text-sm text-slate-700">Staff members have no customer accounts.</p>;
  return (
    <dl className="divide-y divide-slate-100">
      <Row label="Account number">{user.account.number || '—'}</Row>
      <Row label="Savings">{formatDollars(user.account.savings)}</Row>
      <Row label="Checking">{formatDollars(user.account.checking)}</Row>
    </dl>
  );
}
