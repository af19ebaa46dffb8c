import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { Alert } from '../../../components/ui/alert';
import { SessionList } from '../../../components/ui/session-list';
import { errorMessage } from '../../../lib/api';
import { useAction } from '../../../lib/action';
import { adminUserSessionsQuery, endUserSession } from '../api';
import { ROLES, useStaffMay } from '../../../lib/staff-access';

/** Where a customer is signed in; staff can end a session (a stolen phone, a customer's call). Audited. */
export function UserSessions({ userId }: { userId: string }) {
  const may = useStaffMay();
  const { data, isPending, error } = useQuery(adminUserSessionsQuery(userId));
  // The ended session's button goes with it: focus moves to the sessions (the list, or "Not signed in
  // anywhere" once the last one ended) rather than fall to the page; the toast says what happened.
  const sessions = useRef<HTMLElement>(null);
  const end = useAction((sessionId: string) => endUserSession(userId, sessionId), {
    successToast: (message) => message ?? 'Session ended',
    errorToast: true,
    onSuccess: () => sessions.current?.focus(),
  });
  if (isPending) return <p role="status">Loading sessions...</p>;
  if (error) return <Alert tone="error">{errorMessage(error)}</Alert>;
  return (
    <section ref={sessions} tabIndex={-1} aria-label="Sessions" className="focus:outline-none">
      {data.length === 0 ? (
        <p className="text-slate-700">Not signed in anywhere.</p>
      ) : (
        <SessionList label="Sessions" sessions={data} busy={end.busy} onEnd={may(ROLES.customerCare) ? (session) => void end.run(session.id) : undefined} />
      )}
    </section>
  );
}
