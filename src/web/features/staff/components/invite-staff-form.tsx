import { useForm } from 'react-hook-form';
import { type StaffInvite, ZStaffInvite } from '../../../../shared/contracts/staff';
import { EMAIL_LENGTH_MAX, NAME_LENGTH_MAX } from '../../../../shared/limits';
import { STAFF_ROLE_DESCRIPTIONS, STAFF_ROLE_LABELS, STAFF_ROLES } from '../../../../shared/staff-roles';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { inviteStaff } from '../api/invite-staff';

const EMPTY: StaffInvite = { name: '', email: '', staffRole: 'support' };

/** Invites a staff member: the server mails them a link to set a password (ADR 022). */
export function InviteStaffForm() {
  const form = useForm<StaffInvite>({ resolver: contractResolver(ZStaffInvite), defaultValues: EMPTY });
  const action = useFormAction(form, (values) => inviteStaff({ ...values, name: values.name.trim(), email: values.email.trim() }), {
    successToast: (result) => result.message,
    onSuccess: () => form.reset(EMPTY),
  });
  const { errors } = form.formState;
  return (
    <form onSubmit={action.submit} noValidate aria-label="Invite a staff member" className="space-y-4">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <div className="grid gap-4 md:grid-cols-3">
        <TextField label="Name" autoComplete="off" maxLength={NAME_LENGTH_MAX * 2 + 1} {...fieldError(errors.name)} {...form.register('name')} />
        <TextField label="Email" type="email" autoComplete="off" maxLength={EMAIL_LENGTH_MAX} {...fieldError(errors.email)} {...form.register('email')} />
        <SelectField label="Role" {...fieldError(errors.staffRole)} {...form.register('staffRole')}>
          {STAFF_ROLES.map((role) => (
            <option key={role} value={role}>
              {STAFF_ROLE_LABELS[role]}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="text-sm text-slate-600">{STAFF_ROLE_DESCRIPTIONS[form.watch('staffRole')] ?? ''}</p>
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Sending...' : 'Send invitation'}
      </Button>
    </form>
  );
}
