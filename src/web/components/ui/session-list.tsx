import { Laptop } from 'lucide-react';
import type { SessionDto } from '../../../shared/contracts/sessions';
import { formatDate } from '../../lib/format';
import { Button } from './button';

/**
 * Live sessions as a customer recognises them: the device, where from, since when, last used.
 * The customer's security page and the back office's user page show the same list; each says what
 * "End session" does. The session the list is looked at from has no such button (signing out does that).
 */
export function SessionList({
  sessions,
  label,
  onEnd,
  busy,
}: {
  sessions: SessionDto[];
  label: string;
  /** Without it the list only shows (a staff role that may not end sessions). */
  onEnd?: (session: SessionDto) => void;
  busy: boolean;
}) {
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
      {sessions.map((session) => (
        <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-5">
          <div className="flex min-w-0 items-start gap-3">
            <Laptop aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-slate-600" />
            <div className="min-w-0">
              <p className="font-medium text-slate-900">
                {session.device}
                {session.current ? <span className="ml-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">This device</span> : null}
              </p>
              <p className="text-sm text-slate-700">
                {session.ipAddress ? `${session.ipAddress} · ` : ''}signed in {formatDate(session.createdAt, 'dateTime')}
              </p>
              <p className="text-sm text-slate-700">last active {formatDate(session.lastSeenAt, 'dateTime')}</p>
            </div>
          </div>
          {session.current || !onEnd ? null : (
            <Button
              variant="danger"
              // Two sessions of one browser at one address differ by when they began: each button says which.
              aria-label={`End session: ${session.device}${session.ipAddress ? `, ${session.ipAddress}` : ''}, signed in ${formatDate(session.createdAt, 'dateTime')}`}
              disabled={busy}
              onClick={() => onEnd(session)}
            >
              End session
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
