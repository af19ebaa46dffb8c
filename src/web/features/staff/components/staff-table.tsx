import { useState } from 'react';
import type { StaffMember } from '../../../../shared/contracts/staff';
import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../../../shared/staff-roles';
import { Button } from '../../../components/ui/button';
import { ConfirmInline } from '../../../components/ui/confirm-inline';
import { DataTable } from '../../../components/ui/data-table';
import { useAction } from '../../../lib/action';
import { formatDate } from '../../../lib/format';
import { changeStaffRole } from '../api/change-staff-role';
import { resendStaffInvitation } from '../api/resend-invitation';
import { setStaffAccess } from '../api/set-staff-access';
import { EmailAddress } from '../../../components/ui/email-address';

const STATUS_LABELS: Record<StaffMember['staffStatus'], string> = { invited: 'Invited', active: 'Active', suspended: 'Suspended' };
const STATUS_TONES: Record<StaffMember['staffStatus'], string> = {
  invited: 'bg-amber-100 text-amber-900',
  active: 'bg-emerald-100 text-emerald-900',
  suspended: 'bg-red-100 text-red-900',
};

/**
 * The actions' width in the table, the controls' and either question's alike (ConfirmInline's
 * `width`): the least both the role's line (select and Change role, about 260 px) and the new-link
 * question's two buttons side by side (about 270 px with the panel's padding) fit in. A question
 * at its own 20rem widened the column by about 60 px when it opened, and the whole table jumped.
 * On a phone's card the question fills the card.
 */
const actionsWidth = 'md:w-68';

function StatusBadge({ status }: { status: StaffMember['staffStatus'] }) {
  return <span className={`rounded px-2 py-0.5 text-xs font-semibold ${STATUS_TONES[status]}`}>{STATUS_LABELS[status]}</span>;
}

/** The role select, a new invitation link (while invited) and the access button of one staff member. */
function StaffActions({ member, isSelf }: { member: StaffMember; isSelf: boolean }) {
  const [role, setRole] = useState<StaffRole>(member.staffRole);
  const change = useAction(() => changeStaffRole(member._id, role), { successToast: (message) => message, errorToast: true });
  const access = useAction((next: 'suspend' | 'reinstate') => setStaffAccess(member._id, next), { successToast: (message) => message, errorToast: true });
  const resend = useAction(() => resendStaffInvitation(member._id), { successToast: (message) => message, errorToast: true });
  const selectId = `staff-role-${member._id}`;
  const suspended = member.staffStatus === 'suspended';
  // Two groups that never break inside: the role (select and its button), then the access buttons
  // (a new link while invited, Suspend or Reinstate). From 768 px they are two right-aligned lines
  // for every member, the role over the access: on one line, an active member's three controls set
  // the column's width (about 390 px), and beside a long email address the table was wider than its
  // card at 1280 px. Stacked, the column is about as wide as the role's line (actionsWidth), and
  // every row has one shape. On a phone's card the access buttons go under the role too. The order
  // of the controls (and of Tab) is the same at every width.
  const invited = member.staffStatus === 'invited';
  // Either question takes the place of all the member's controls, at their width (the role select
  // keeps its choice).
  return (
    <ConfirmInline
      question={
        suspended
          ? `Reinstate back office access for ${member.name}?`
          : `Suspend back office access for ${member.name}? Their sessions end at once and they cannot sign in until reinstated.`
      }
      confirmLabel={suspended ? 'Reinstate' : 'Suspend'}
      busyLabel={suspended ? 'Reinstating...' : 'Suspending...'}
      tone={suspended ? 'primary' : 'danger'}
      onConfirm={() => access.run(suspended ? 'reinstate' : 'suspend')}
      width={actionsWidth}
    >
      {(accessOpener) => (
        <ConfirmInline
          question={`Send ${member.name} a new invitation link? The earlier link stops working.`}
          confirmLabel="Send new link"
          busyLabel="Sending..."
          onConfirm={() => resend.run()}
        >
          {(resendOpener) => (
            <div className="flex flex-wrap items-center gap-2 md:flex-col md:items-end">
              <div className="flex items-center gap-2">
                <label htmlFor={selectId} className="sr-only">
                  Role for {member.name}
                </label>
                <select
                  id={selectId}
                  value={role}
                  onChange={(event) => setRole(event.target.value as StaffRole)}
                  className="rounded-md border border-slate-400 bg-white px-2 py-2 text-sm text-slate-900 focus:outline-none focus:ring-2 focus:ring-brand-600"
                >
                  {STAFF_ROLES.map((each) => (
                    <option key={each} value={each}>
                      {STAFF_ROLE_LABELS[each]}
                    </option>
                  ))}
                </select>
                <Button
                  variant="secondary"
                  onClick={() => void change.run()}
                  disabled={change.busy || role === member.staffRole}
                  aria-label={`Change role of ${member.name}`}
                >
                  Change role
                </Button>
              </div>
              <div className="flex items-center gap-2 empty:hidden">
                {invited ? (
                  <Button {...resendOpener} variant="secondary" disabled={resend.busy} aria-label={`Send ${member.name} a new invitation link`}>
                    Send a new link
                  </Button>
                ) : null}
                {isSelf ? null : (
                  <Button
                    {...accessOpener}
                    variant={suspended ? 'secondary' : 'danger'}
                    disabled={access.busy}
                    aria-label={`${suspended ? 'Reinstate' : 'Suspend'} ${member.name}`}
                  >
                    {suspended ? 'Reinstate' : 'Suspend'}
                  </Button>
                )}
              </div>
            </div>
          )}
        </ConfirmInline>
      )}
    </ConfirmInline>
  );
}

/** The last sign-in as its day over its time: two lines that never break inside (not four). */
function LastSignIn({ member }: { member: StaffMember }) {
  if (!member.lastSignInAt) return 'Never';
  return (
    <time dateTime={member.lastSignInAt}>
      <span className="whitespace-nowrap">{formatDate(member.lastSignInAt)},</span>{' '}
      <span className="whitespace-nowrap">{formatDate(member.lastSignInAt, 'time')}</span>
    </time>
  );
}

/** An invited staff member's link: until when it works, or that it expired (then a new link is the way in). */
function InvitationNote({ member }: { member: StaffMember }) {
  if (member.staffStatus !== 'invited') return null;
  if (!member.invitationExpiresAt) return <span className="mt-1 block text-xs text-slate-700">No working link</span>;
  const expired = new Date(member.invitationExpiresAt).getTime() <= Date.now();
  return (
    <span className={`mt-1 block text-xs ${expired ? 'font-semibold text-red-800' : 'text-slate-700'}`}>
      {expired ? 'Link expired' : 'Link works until'} {formatDate(member.invitationExpiresAt, 'dateTime')}
    </span>
  );
}

/** Staff members in the back office's one list (DataTable): a table from 768 px, one card per member below it (ADR 022). */
export function StaffTable({ items, selfId }: { items: StaffMember[]; selfId: string }) {
  return (
    <DataTable
      caption="Staff members"
      rows={items}
      rowKey={(member) => member._id}
      rowProps={() => ({ 'data-testid': 'staff-row' })}
      columns={[
        {
          header: 'Name',
          kind: 'title',
          cell: (member) => (
            <>
              {/* A long unbroken name wraps anywhere rather than widening the table (break-words would not). */}
              <span className="block font-medium text-slate-900 [overflow-wrap:anywhere]">{member.name}</span>
              <EmailAddress value={member.email} className="block text-sm font-normal text-slate-700" />
            </>
          ),
        },
        { header: 'Role', cell: (member) => STAFF_ROLE_LABELS[member.staffRole] },
        {
          header: 'Access',
          cell: (member) => (
            <>
              <StatusBadge status={member.staffStatus} />
              <InvitationNote member={member} />
            </>
          ),
        },
        { header: 'Second factor', cell: (member) => (member.hasSecondFactor ? 'Yes' : 'No') },
        { header: 'Last sign-in', cell: (member) => <LastSignIn member={member} /> },
        {
          header: 'Actions',
          kind: 'actions',
          cell: (member) => <StaffActions member={member} isSelf={member._id === selfId} />,
        },
      ]}
    />
  );
}
