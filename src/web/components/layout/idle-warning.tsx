import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { SESSION_IDLE_WARNING_MS } from '../../../shared/limits';
import { api } from '../../lib/api';
import { sessionIdleDeadline, subscribeSessionIdle } from '../../lib/session-idle';
import { Button } from '../ui/button';

/**
 * A minute before the session idles out (the server says when with every answer), a modal dialog
 * offers "Stay signed in", which makes a call and so keeps the session. Left alone, the session
 * ends: at the deadline the frame asks the server, whose 401 sends the browser to the sign-in page
 * (unless another tab kept the session alive, which the answer then says).
 */
export function IdleWarning({ onSignOut }: { onSignOut: () => void }) {
  const deadline = useSyncExternalStore(subscribeSessionIdle, sessionIdleDeadline, () => null);
  const [warning, setWarning] = useState(false);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (deadline === null) return;
    const left = deadline - Date.now();
    setWarning(left <= SESSION_IDLE_WARNING_MS);
    const warn = setTimeout(() => setWarning(true), Math.max(0, left - SESSION_IDLE_WARNING_MS));
    const check = setTimeout(() => void api.get('/auth/user').catch(() => undefined), Math.max(0, left));
    return () => {
      clearTimeout(warn);
      clearTimeout(check);
    };
  }, [deadline]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (warning && !element.open) element.showModal();
    if (!warning && element.open) element.close();
  }, [warning]);

  async function staySignedIn() {
    setBusy(true);
    try {
      // Any signed-in call renews the session; its answer moves the deadline, which closes this.
      await api.get('/auth/user');
    } catch {
      // A 401 has already sent the browser to the sign-in page; anything else: try again.
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="idle-warning-title"
      aria-describedby="idle-warning-text"
      // Escape would close the dialog without renewing anything: treat it as "Stay signed in".
      onCancel={(event) => {
        event.preventDefault();
        void staySignedIn();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-6 shadow-xl backdrop:bg-slate-900/50"
    >
      <h2 id="idle-warning-title" className="text-lg font-semibold text-slate-900">
        Are you still there?
      </h2>
      <p id="idle-warning-text" className="mt-2 text-slate-700">
        For your security you will be signed out in about a minute, because nothing has happened for a while.
      </p>
      <div className="mt-5 flex flex-wrap gap-3">
        <Button autoFocus disabled={busy} onClick={() => void staySignedIn()}>
          {busy ? 'Working...' : 'Stay signed in'}
        </Button>
        <Button variant="secondary" onClick={onSignOut}>
          Sign out
        </Button>
      </div>
    </dialog>
  );
}
