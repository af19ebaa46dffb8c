import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ZChangePasswordRequest } from '../../../../shared/contracts/auth';
import { PASSWORD_LENGTH_MAX, PASSWORD_LENGTH_MIN } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/form';
import { PasswordStrength } from '../../../components/ui/password-strength';
import { useCurrentUser } from '../../../lib/current-user';
import { contractResolver, useFormAction } from '../../../lib/form';
import { changePassword } from '../api';

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

// The contract of POST /auth/change-password, plus the confirmation only the form has.
const ZPasswordForm = ZChangePasswordRequest.extend({ confirmPassword: z.string() }).refine((values) => values.newPassword === values.confirmPassword, {
  path: ['confirmPassword'],
  message: 'Passwords do not match',
});
const empty: PasswordValues = { oldPassword: '', newPassword: '', confirmPassword: '' };

export function PasswordForm() {
  const user = useCurrentUser();
  const form = useForm<PasswordValues>({
    resolver: contractResolver(ZPasswordForm, { required: { fields: ['oldPassword', 'newPassword', 'confirmPassword'], message: 'All fields are required' } }),
    defaultValues: empty,
  });
  const { errors } = form.formState;
  const action = useFormAction(form, ({ oldPassword, newPassword }) => changePassword({ oldPassword, newPassword }), {
    onSuccess: () => form.reset(empty),
  });

  return (
    <form onSubmit={action.submit} noValidate className="max-w-md space-y-5">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      {action.done ? <Alert tone="success">{action.result}</Alert> : null}
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        required
        maxLength={PASSWORD_LENGTH_MAX}
        invalid={!!errors.oldPassword}
        {...form.register('oldPassword')}
      />
      <PasswordField
        label="New password"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_LENGTH_MAX}
        hint={`At least ${PASSWORD_LENGTH_MIN} characters, hard to guess. Your other sessions will be signed out.`}
        invalid={!!errors.newPassword}
        {...form.register('newPassword')}
      />
      <PasswordStrength password={form.watch('newPassword')} userInputs={[user.firstName, user.lastName, user.email]} />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_LENGTH_MAX}
        invalid={!!errors.confirmPassword}
        {...form.register('confirmPassword')}
      />
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Updating...' : 'Update Password'}
      </Button>
    </form>
  );
}
