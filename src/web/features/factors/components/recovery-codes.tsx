import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { closeKeepingFocus } from '../../../lib/focus';

/**
 * The 10 recovery codes, shown this once: the page says so, offers to copy them, and moves on only
 * once the user ticks that they saved them. The focus lands on the heading, so a screen reader
 * reads the warning first.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <div className="space-y-4">
      <Alert tone="success">Your authenticator app is on: sign-ins will ask for its code.</Alert>
      <div className="space-y-2 rounded-lg border-2 border-amber-400 bg-amber-50 p-4">
        <h4 ref={heading} tabIndex={-1} className="text-base font-semibold text-amber-950 focus:outline-none">
          Save your recovery codes now
        </h4>
        <p className="text-sm text-amber-950">
          If you lose your phone, each code signs you in once instead of the app. They are shown only now: copy them into a password manager or print them, and
          keep them where only you can reach them.
        </p>
        <ol aria-label="Recovery codes" className="grid grid-cols-1 gap-x-6 gap-y-1 py-2 font-mono text-sm text-slate-900 sm:grid-cols-2">
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ol>
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" onClick={() => void copy()}>
            Copy codes
          </Button>
          <p role="status" className="text-sm text-amber-950">
            {copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'Could not copy: select the codes and copy them yourself.' : ''}
          </p>
        </div>
      </div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-900">
        <input type="checkbox" checked={saved} onChange={(event) => setSaved(event.target.checked)} className="h-4 w-4 rounded border-slate-400" />I have saved
        my recovery codes
      </label>
      {/* Done takes the codes (and itself) away: focus goes to the section they were in, not the page. */}
      <Button disabled={!saved} onClick={() => closeKeepingFocus(onDone)}>
        Done
      </Button>
    </div>
  );
}
