import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { EmailField } from '../../../components/ui/form';
import { NewPasswordFields, type NewPasswordValues } from '../../../components/ui/new-password-fields';
import { contractResolver, lazyContract, useFormAction, fieldError } from '../../../lib/form';
import { paths } from '../../../paths';
import { requestPasswordReset, resetPassword } from '../api';

// The contracts (and zod) load at a form's first focus: the page's first download stays small.
const forgotPasswordContract = lazyContract(() => import('../../../../shared/contracts/auth').then((contract) => contract.ZForgotPasswordRequest));
const resetPasswordContract = lazyContract(() => import('../../../../shared/contracts/auth').then((contract) => contract.ZResetPasswordRequest));

/** Step 1: the email to send a reset link to. */
export function RequestResetLinkForm() {
  const form = useForm<{ email: string }>({
    resolver: contractResolver(forgotPasswordContract, { required: { fields: ['email'], message: 'Please enter your email' } }),
    defaultValues: { email: '' },
  });
  const action = useFormAction(form, (values) => requestPasswordReset(values.email.trim()), { refresh: false });
  return (
    <form onSubmit={action.submit} onFocus={forgotPasswordContract.preload} noValidate className="space-y-5">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      {action.done ? <Alert tone="success">{action.result ?? 'Check your email for a reset link.'}</Alert> : null}
      <EmailField autoComplete="email" {...fieldError(form.formState.errors.email)} {...form.register('email')} />
      <Button type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Loading...' : 'Send reset link'}
      </Button>
    </form>
  );
}

/** Step 2, from the emailed link: the new password. */
export function ChooseNewPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = useForm<NewPasswordValues>({
    resolver: contractResolver(resetPasswordContract, { toInput: (values) => ({ ...values, token }) }),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const action = useFormAction(form, (values) => resetPassword({ token, ...values }), {
    refresh: false,
    onSuccess: (message) => navigate(paths.signin, { replace: true, state: { notice: message } }),
  });
  return (
    // method="post": a submit before the scripts have loaded must never put the password in the address.
    <form method="post" onSubmit={action.submit} onFocus={resetPasswordContract.preload} noValidate className="space-y-5">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <NewPasswordFields form={form} label="New password" />
      <Button type="submit" className="w-full" disabled={action.busy}>
        {action.busy ? 'Loading...' : 'Set new password'}
      </Button>
    </form>
  );
}
