import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { SessionList } from '../../components/ui/session-list';
import { errorMessage } from '../../lib/api';
import { useAction } from '../../lib/action';
import { endOtherSessions, endSession, mySessionsQuery } from './sessions-api';

/**
 * Where the customer is signed in, with "End session" for each other device and "Sign out
 * everywhere else". A device the customer does not recognise is a reason to change the password:
 * the text says so.
 */
export function Sessions() {
  const { data, isPending, error } = useQuery(mySessionsQuery());
  // The button pressed goes (its session ended) or is disabled (no other session left): useAction puts
  // focus on the next session's button, else on this section's heading (lib/focus.ts); the toast
  // says what happened.
  const endOne = useAction((id: string) => endSession(id), {
    successToast: (message) => message ?? 'Session ended',
    errorToast: true,
  });
  const endOthers = useAction(() => endOtherSessions(), {
    successToast: (message) => message ?? 'Signed out everywhere else',
    errorToast: true,
  });
  const others = data?.filter((session) => !session.current) ?? [];

  return (
    <section aria-labelledby="sessions-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="sessions-heading" className="text-lg font-semibold text-slate-900">
            Where you are signed in
          </h2>
          <p className="text-sm text-slate-700">If you do not recognise a device, end its session and change your password.</p>
        </div>
        <Button variant="secondary" disabled={endOthers.busy || others.length === 0} onClick={() => void endOthers.run()}>
          {endOthers.busy ? 'Signing out...' : 'Sign out everywhere else'}
        </Button>
      </div>
      {isPending ? <p role="status">Loading...</p> : null}
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {data ? <SessionList label="Your sessions" sessions={data} busy={endOne.busy} onEnd={(session) => void endOne.run(session.id)} /> : null}
    </section>
  );
}
