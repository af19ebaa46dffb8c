import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../../components/ui/alert';
import { SessionList } from '../../../components/ui/session-list';
import { errorMessage } from '../../../lib/api';
import { useAction } from '../../../lib/action';
import { adminUserSessionsQuery, endUserSession } from '../api';

/** Where a customer is signed in; staff whose role may (`mayEnd`) can end a session (a stolen phone, a customer's call). Audited. */
export function UserSessions({ userId, mayEnd }: { userId: string; mayEnd: boolean }) {
  const { data, isPending, error } = useQuery(adminUserSessionsQuery(userId));
  // The ended session's button goes with it: useAction puts focus on the next session's button, or on
  // the card's heading once none is left (lib/focus.ts); the toast says what happened.
  const end = useAction((sessionId: string) => endUserSession(userId, sessionId), {
    successToast: (message) => message ?? 'Session ended',
    errorToast: true,
  });
  if (isPending) return <p role="status">Loading sessions...</p>;
  if (error) return <Alert tone="error">{errorMessage(error)}</Alert>;
  return data.length === 0 ? (
    <p className="text-slate-700">Not signed in anywhere.</p>
  ) : (
    <SessionList label="Sessions" sessions={data} busy={end.busy} onEnd={mayEnd ? (session) => void end.run(session.id) : undefined} />
  );
}
