import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { PASSWORD_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/ui/form';
import { PasswordStrength } from '../../../components/ui/password-strength';
import { contractResolver, lazyContract, useFormAction } from '../../../lib/form';
import { paths } from '../../../paths';
import { acceptInvitation } from '../api/accept-invitation';

// The contract (and zod) loads at the form's first focus: the page's first download stays small.
const invitationContract = lazyContract(() => import('../../../../shared/contracts/staff').then((contract) => contract.ZStaffInvitationAccept));

interface Values {
  password: string;
  confirmPassword: string;
}

/** The invited staff member's first password, from the emailed link; then the staff sign-in. */
export function AcceptInvitationForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = useForm<Values>({
    resolver: contractResolver(invitationContract, { toInput: (values) => ({ ...values, token }) }),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const action = useFormAction(form, (values) => acceptInvitation({ token, ...values }), {
    refresh: false,
    onSuccess: (message) => navigate(paths.adminLogin, { replace: true, state: { notice: message } }),
  });
  return (
    // method="post": a submit before the scripts have loaded must never put the password in the address.
    <form method="post" onSubmit={action.submit} onFocus={invitationContract.preload} noValidate className="space-y-5">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <PasswordField
        label="Password"
        autoComplete="new-password"
        hint="At least 8 characters, hard to guess: common passwords and predictable patterns are refused."
        maxLength={PASSWORD_LENGTH_MAX}
        invalid={!!errors.password}
        {...form.register('password')}
      />
      <PasswordStrength password={form.watch('password')} />
      <PasswordField
        label="Confirm password"
        autoComplete="new-password"
        maxLength={PASSWORD_LENGTH_MAX}
        invalid={!!errors.confirmPassword}
        {...form.register('confirmPassword')}
      />
      <Button type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Loading...' : 'Set password'}
      </Button>
    </form>
  );
}
