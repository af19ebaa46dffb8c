import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { NewPasswordFields, type NewPasswordValues } from '../../../components/ui/new-password-fields';
import { contractResolver, lazyContract, useFormAction } from '../../../lib/form';
import { paths } from '../../../paths';
import { acceptInvitation } from '../api/accept-invitation';

// The contract (and zod) loads at the form's first focus: the page's first download stays small.
const invitationContract = lazyContract(() => import('../../../../shared/contracts/staff').then((contract) => contract.ZStaffInvitationAccept));

/** The invited staff member's first password, from the emailed link; then the staff sign-in. */
export function AcceptInvitationForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = useForm<NewPasswordValues>({
    resolver: contractResolver(invitationContract, { toInput: (values) => ({ ...values, token }) }),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const action = useFormAction(form, (values) => acceptInvitation({ token, ...values }), {
    refresh: false,
    onSuccess: (message) => navigate(paths.adminLogin, { replace: true, state: { notice: message } }),
  });
  return (
    // method="post": a submit before the scripts have loaded must never put the password in the address.
    <form method="post" onSubmit={action.submit} onFocus={invitationContract.preload} noValidate className="space-y-5">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <NewPasswordFields form={form} label="Password" />
      <Button type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Loading...' : 'Set password'}
      </Button>
    </form>
  );
}
