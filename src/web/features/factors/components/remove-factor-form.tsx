import { useQuery } from '@tanstack/react-query';
import { type Ref, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useAction } from '../../../lib/action';
import { factorSummaryQuery } from '../api/factor-summary';
import { type FreshFactorBody, freshFactorBody } from '../api/fresh-factor';
import { FreshFactorField } from '../../../components/ui/fresh-factor-field';

/**
 * The confirmation before a second factor is removed: what removing it does, then a fresh factor
 * (ADR 025: a code from the app, a recovery code or a passkey) and the removal itself. It replaces
 * the button that opened it: open it with useInlineConfirmation (lib/focus.ts) and give it the
 * hook's `panel` as `ref` and `cancel` as `onCancel`, so focus moves into it, and Escape or Cancel
 * returns it to that button.
 */
export function RemoveFactorForm({
  question,
  submitLabel,
  removedToast,
  remove,
  onCancel,
  ref,
}: {
  question: string;
  submitLabel: string;
  removedToast: string;
  remove: (proof: FreshFactorBody) => Promise<string | undefined>;
  onCancel: () => void;
  ref?: Ref<HTMLFormElement>;
}) {
  const [code, setCode] = useState('');
  const { data: factors } = useQuery(factorSummaryQuery());
  const action = useAction(async () => remove(await freshFactorBody(code, factors)), { successToast: (message) => message ?? removedToast });
  return (
    <form
      ref={ref}
      className="space-y-3 rounded-md bg-red-50 p-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void action.run();
      }}
    >
      <p className="text-sm text-red-900">{question} Confirm it&apos;s you first.</p>
      <div className="max-w-xs">
        <FreshFactorField factors={factors} value={code} onChange={(event) => setCode(event.target.value)} error={action.error?.fields?.secondFactorCode} />
      </div>
      {action.error && !action.error.fields?.secondFactorCode ? (
        <p role="alert" className="text-sm text-red-800">
          {action.error.message}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="danger" disabled={action.busy}>
          {action.busy ? 'Removing...' : submitLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
