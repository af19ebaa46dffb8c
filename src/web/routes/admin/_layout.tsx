import {
  BadgeCheck,
  BookOpen,
  ClipboardCheck,
  ClipboardList,
  CreditCard,
  FileSpreadsheet,
  HandCoins,
  Landmark,
  LayoutDashboard,
  ListChecks,
  Mail,
  PlusCircle,
  ShieldCheck,
  UserCog,
  Users,
} from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { Outlet, redirect, useLoaderData } from 'react-router';
import { AppShell, type ShellLink } from '../../components/layout/app-shell';
import { SignedInProviders } from '../../components/layout/signed-in-providers';
import { signOut } from '../../features/auth/api';
import { loadSignedInUser, locationOf } from '../../features/auth/guards';
import { pendingApprovalsQuery } from '../../features/approvals/api/pending-count';
import { factorSummaryQuery } from '../../features/factors/api/factor-summary';
import { ApiError } from '../../lib/api';
import { useCurrentUser } from '../../lib/current-user';
import { queryClient } from '../../lib/query';
import { signInPathFor } from '../../lib/return-to';
import { paths } from '../../paths';
import { roleMayUse, STAFF_PAGE_ROLES, type StaffPage, type StaffRole } from '../../../shared/staff-roles';
import type { Route } from './+types/_layout';

/** Each link with its page (ADR 022): the sidebar shows a role only the pages it may open (STAFF_PAGE_ROLES). */
const links: Array<ShellLink & { page: StaffPage }> = [
  { to: paths.adminDashboard, label: 'Dashboard', icon: LayoutDashboard, page: 'adminDashboard' },
  { to: paths.adminUsers, label: 'Users', icon: Users, page: 'adminUsers' },
  { to: paths.adminJournal, label: 'Journal', icon: BookOpen, page: 'adminJournal' },
  { to: paths.adminLedger, label: 'General ledger', icon: Landmark, page: 'adminLedger' },
  { to: paths.adminReports, label: 'Reports', icon: FileSpreadsheet, page: 'adminReports' },
  { to: paths.adminAddTransaction, label: 'Add Transaction', icon: PlusCircle, page: 'adminAddTransaction' },
  { to: paths.adminApprovals, label: 'Approvals', icon: ClipboardCheck, page: 'adminApprovals' },
  { to: paths.adminKyc, label: 'Identity reviews', icon: BadgeCheck, page: 'adminKyc' },
  { to: paths.adminLoans, label: 'Loans', icon: HandCoins, page: 'adminLoans' },
  { to: paths.adminCards, label: 'Card requests', icon: CreditCard, page: 'adminCards' },
  { to: paths.adminContacts, label: 'Contacts', icon: Mail, page: 'adminContacts' },
  { to: paths.adminAudit, label: 'Audit log', icon: ClipboardList, page: 'adminAudit' },
  { to: paths.adminJobs, label: 'Background jobs', icon: ListChecks, page: 'adminJobs' },
  { to: paths.adminStaff, label: 'Staff', icon: UserCog, page: 'adminStaff' },
  { to: paths.adminSecurity, label: 'Security', icon: ShieldCheck, page: 'adminSecurity' },
];

/** The sidebar of a staff member: the links of their role. */
const linksFor = (role: StaffRole | null): ShellLink[] =>
  links.filter((link) => roleMayUse(role, STAFF_PAGE_ROLES[link.page])).map(({ page: _page, ...link }) => link);

/**
 * Staff must have a second factor (ADR 011): a staff member without one reaches only the
 * enrolment page, in a frame with nothing else to click, until they set one up.
 */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  let factors;
  try {
    factors = await queryClient.fetchQuery({ ...factorSummaryQuery(), staleTime: 0 });
  } catch (error) {
    // A visitor: the staff login (not the customer sign-in), then back to the page asked for.
    if (error instanceof ApiError && error.status === 401) throw redirect(signInPathFor(locationOf(request)));
    throw error;
  }
  if (factors.enrolmentRequired) {
    if (new URL(request.url).pathname !== paths.adminSecurity) throw redirect(paths.adminSecurity);
    return { enrolOnly: true };
  }
  const user = await loadSignedInUser(request);
  // A customer's session: the staff login, saying the back office is for staff only.
  if (!user.isAdmin) throw redirect(signInPathFor(locationOf(request), { staffOnly: true }));
  return { enrolOnly: false };
}

export default function AdminLayout() {
  const { enrolOnly } = useLoaderData<typeof clientLoader>();
  return <SignedInProviders>{enrolOnly ? <EnrolmentFrame /> : <AdminLayoutFrame />}</SignedInProviders>;
}

/** The frame of a staff session that may only enrol a second factor: the enrolment page and sign-out. */
function EnrolmentFrame() {
  return (
    <AppShell
      links={[{ to: paths.adminSecurity, label: 'Security', icon: ShieldCheck }]}
      onSignOut={signOut}
      navLabel="Back office"
      homePath={paths.adminSecurity}
      header={<p className="text-lg font-semibold text-slate-900">Back office</p>}
    >
      <Outlet />
    </AppShell>
  );
}

function AdminLayoutFrame() {
  const user = useCurrentUser();
  // The sidebar's badge: requests waiting for a second staff member (ADR 023).
  const pending = useQuery({ ...pendingApprovalsQuery(), enabled: roleMayUse(user.staffRole, STAFF_PAGE_ROLES.adminApprovals) }).data ?? 0;
  const shown = linksFor(user.staffRole).map((link) => (link.to === paths.adminApprovals ? { ...link, badge: { count: pending, label: 'pending' } } : link));
  return (
    <AppShell
      links={shown}
      onSignOut={signOut}
      navLabel="Back office"
      homePath={paths.adminDashboard}
      header={
        <div className="flex min-w-0 flex-1 items-center justify-between gap-3">
          <p className="text-lg font-semibold text-slate-900">Back office</p>
          <p className="hidden min-w-0 truncate text-sm text-slate-700 sm:block" title={user.email}>
            Signed in as <span className="font-semibold text-slate-900">{user.email}</span>
          </p>
        </div>
      }
    >
      <Outlet />
    </AppShell>
  );
}
