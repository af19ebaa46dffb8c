import { useState, type FormEvent } from 'react';
import { Button } from './button';
import { TextAreaField } from './form';

export const REASON_REQUIRED = 'A reason is required';

/**
 * A staff rejection with its written reason (the customer is emailed it). A reason shorter than
 * 3 characters is refused here as the server refuses it.
 */
export function ReasonForm({
  label,
  busy,
  onConfirm,
  onCancel,
  onInvalid,
  className = 'space-y-3',
}: {
  label: string;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
  onInvalid: (message: string) => void;
  className?: string;
}) {
  const [reason, setReason] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim().length < 3) {
      onInvalid(REASON_REQUIRED);
      return;
    }
    onConfirm(reason.trim());
  }
  return (
    <form onSubmit={submit} noValidate className={className}>
      <TextAreaField
        label={label}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        rows={3}
        maxLength={500}
        required
        hint="The customer receives this reason by email."
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="danger" disabled={busy}>
          Confirm rejection
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
