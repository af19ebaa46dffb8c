import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ZChangePasswordRequest } from '../../../../shared/contracts/auth';
import { PASSWORD_LENGTH_MAX, PASSWORD_LENGTH_MIN } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FreshFactorField } from '../../../components/ui/fresh-factor-field';
import { PasswordField } from '../../../components/ui/form';
import { PasswordStrength } from '../../../components/ui/password-strength';
import { useCurrentUser } from '../../../lib/current-user';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { changePassword } from '../api';

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
  secondFactorCode: string;
}

// The contract of POST /auth/change-password, plus the confirmation only the form has; an empty
// second-factor code is no code (a passkey, or none on the account).
const ZPasswordForm = ZChangePasswordRequest.extend({
  confirmPassword: z.string(),
  secondFactorCode: z.union([z.literal(''), ZChangePasswordRequest.shape.secondFactorCode]),
}).refine((values) => values.newPassword === values.confirmPassword, {
  path: ['confirmPassword'],
  message: 'Passwords do not match',
});
const empty: PasswordValues = { oldPassword: '', newPassword: '', confirmPassword: '', secondFactorCode: '' };

/**
 * The account's second factors (the route reads them) and how to get a passkey's fresh answer:
 * with either, the change asks for one.
 */
export function PasswordForm({
  factors,
  stepUpWithPasskey,
}: {
  factors: { totp: boolean; passkeys: number } | undefined;
  stepUpWithPasskey: () => Promise<AuthenticationResponseJSON>;
}) {
  const user = useCurrentUser();
  const form = useForm<PasswordValues>({
    resolver: contractResolver(ZPasswordForm, { required: { fields: ['oldPassword', 'newPassword', 'confirmPassword'], message: 'All fields are required' } }),
    defaultValues: empty,
  });
  const { errors } = form.formState;
  // With a second factor, the change needs a fresh one (ADR 011): the app's code or a recovery
  // code when there is an app; otherwise (or with the field left empty) a passkey.
  const hasPasskey = (factors?.passkeys ?? 0) > 0;
  const action = useFormAction(
    form,
    async ({ oldPassword, newPassword, secondFactorCode }) => {
      const code = secondFactorCode.trim();
      if (code) return changePassword({ oldPassword, newPassword, secondFactorCode: code });
      if (hasPasskey) return changePassword({ oldPassword, newPassword, secondFactorPasskey: await stepUpWithPasskey() });
      return changePassword({ oldPassword, newPassword });
    },
    { onSuccess: () => form.reset(empty) },
  );

  return (
    <form onSubmit={action.submit} noValidate className="max-w-md space-y-5">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      {action.done ? <Alert tone="success">{action.result}</Alert> : null}
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        required
        maxLength={PASSWORD_LENGTH_MAX}
        {...fieldError(errors.oldPassword)}
        {...form.register('oldPassword')}
      />
      <PasswordField
        label="New password"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_LENGTH_MAX}
        hint={`At least ${PASSWORD_LENGTH_MIN} characters, hard to guess. Your other sessions will be signed out.`}
        {...fieldError(errors.newPassword)}
        {...form.register('newPassword')}
      />
      <PasswordStrength password={form.watch('newPassword')} userInputs={[user.firstName, user.lastName, user.email]} />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_LENGTH_MAX}
        {...fieldError(errors.confirmPassword)}
        {...form.register('confirmPassword')}
      />
      <FreshFactorField factors={factors} {...fieldError(errors.secondFactorCode)} {...form.register('secondFactorCode')} />
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Updating...' : 'Update Password'}
      </Button>
    </form>
  );
}
