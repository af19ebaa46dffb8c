import { useForm } from 'react-hook-form';
import { NOTE_LENGTH_MAX, ZNoteRequest, type NoteRequest } from '../../../../shared/contracts/timeline';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { addNote } from '../api/add-note';

/** A staff note on the customer's page: kept for good (never edited or deleted) and recorded in the audit log. */
export function NoteForm({ userId }: { userId: string }) {
  const form = useForm<NoteRequest>({ resolver: contractResolver(ZNoteRequest), defaultValues: { body: '' } });
  const action = useFormAction(form, (values) => addNote(userId, { body: values.body.trim() }), {
    successToast: (result) => result.message,
    onSuccess: () => form.reset({ body: '' }),
  });
  return (
    <form onSubmit={action.submit} noValidate aria-label="Add a note" className="space-y-3">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <TextAreaField
        label="Note"
        rows={3}
        maxLength={NOTE_LENGTH_MAX}
        hint="Staff only. A note cannot be changed or deleted, and adding one is recorded in the audit log."
        {...fieldError(form.formState.errors.body)}
        {...form.register('body')}
      />
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Adding...' : 'Add note'}
      </Button>
    </form>
  );
}
