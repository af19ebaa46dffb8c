import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { TEXT_LENGTH_MAX } from '../../../shared/limits';
import { contractResolver, useFormAction } from '../../lib/form';
import { Alert } from './alert';
import { Button } from './button';
import { TextAreaField } from './form';

/**
 * A staff rejection with its written reason (the customer is emailed it), checked with the
 * decision's own contract (`{ reason }`, at least 3 characters) before it is sent. `send` makes
 * the call and answers the message to show.
 */
export function ReasonForm({
  label,
  schema,
  send,
  onCancel,
  className = 'space-y-3',
  hint = 'The customer receives this reason by email.',
}: {
  label: string;
  schema: z.ZodType<{ reason: string }, { reason: string }>;
  send: (reason: string) => Promise<string>;
  onCancel: () => void;
  className?: string;
  /** Who reads the reason (default: the customer, by email). */
  hint?: string;
}) {
  const form = useForm<{ reason: string }>({ resolver: contractResolver(schema), defaultValues: { reason: '' } });
  const action = useFormAction(form, ({ reason }) => send(reason.trim()), { successToast: (message) => message });
  return (
    <form onSubmit={action.submit} noValidate className={className}>
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <TextAreaField
        label={label}
        rows={3}
        maxLength={TEXT_LENGTH_MAX}
        required
        hint={hint}
        invalid={!!form.formState.errors.reason}
        {...form.register('reason')}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="danger" disabled={action.busy}>
          Confirm rejection
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
