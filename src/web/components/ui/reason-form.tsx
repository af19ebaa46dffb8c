import type { ReactNode, Ref } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { TEXT_LENGTH_MAX } from '../../../shared/limits';
import { contractResolver, useFormAction, fieldError } from '../../lib/form';
import { Alert } from './alert';
import { Button } from './button';
import { TextAreaField } from './form';

/**
 * A staff decision with its written reason: a rejection (the customer is emailed it) by default, or
 * any other (a reversal: `intro`, `submitLabel`), checked with the decision's own contract
 * (`{ reason }`, at least 3 characters) before it is sent. `send` makes the call and answers the
 * message to show; `onSent` follows it. It replaces the button that opened it: open it with
 * useInlineConfirmation (lib/focus.ts) and give it the hook's `panel` as `ref` and `cancel` as
 * `onCancel`, so focus moves to the reason, and Escape or Cancel returns it to that button (not
 * while the rejection is being sent).
 */
export function ReasonForm({
  label,
  schema,
  send,
  onCancel,
  className = 'space-y-3',
  hint = 'The customer receives this reason by email.',
  formLabel,
  intro,
  submitLabel = 'Confirm rejection',
  busyLabel,
  onSent,
  ref,
}: {
  label: string;
  schema: z.ZodType<{ reason: string }, { reason: string }>;
  send: (reason: string) => Promise<string>;
  onCancel: () => void;
  className?: string;
  /** Who reads the reason (default: the customer, by email). */
  hint?: string;
  /** The form's accessible name, where it has one. */
  formLabel?: string;
  /** Above the reason: the question and what the decision does. */
  intro?: ReactNode;
  submitLabel?: string;
  busyLabel?: string;
  onSent?: () => void;
  ref?: Ref<HTMLFormElement>;
}) {
  const form = useForm<{ reason: string }>({ resolver: contractResolver(schema), defaultValues: { reason: '' } });
  const action = useFormAction(form, ({ reason }) => send(reason.trim()), { successToast: (message) => message, onSuccess: onSent });
  return (
    <form
      ref={ref}
      aria-label={formLabel}
      onSubmit={action.submit}
      // While the rejection is being sent, Escape does not close the form: closing it would look
      // like the rejection was called off, and it was not.
      onKeyDown={(event) => {
        if (event.key === 'Escape' && action.busy) event.preventDefault();
      }}
      noValidate
      className={className}
    >
      {intro}
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <TextAreaField
        label={label}
        rows={3}
        maxLength={TEXT_LENGTH_MAX}
        required
        hint={hint}
        {...fieldError(form.formState.errors.reason)}
        {...form.register('reason')}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="danger" disabled={action.busy}>
          {action.busy && busyLabel ? busyLabel : submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={action.busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
