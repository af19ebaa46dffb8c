import type { UseFormReturn } from 'react-hook-form';
import { PASSWORD_LENGTH_MAX, PASSWORD_LENGTH_MIN } from '../../../shared/limits';
import { PasswordField } from './form';
import { fieldError } from '../../lib/form';
import { PasswordStrength } from './password-strength';

/** What a form that sets a password from an emailed link holds (a reset, a staff invitation). */
export interface NewPasswordValues {
  password: string;
  confirmPassword: string;
}

/**
 * A new password and its confirmation, with the rules and the strength meter between them: the
 * fields of every page that sets a password from an emailed link. `label` names the first field
 * ("Password", "New password"); the second is "Confirm" and the same words.
 */
export function NewPasswordFields({ form, label }: { form: UseFormReturn<NewPasswordValues>; label: 'Password' | 'New password' }) {
  const { errors } = form.formState;
  return (
    <>
      <PasswordField
        label={label}
        autoComplete="new-password"
        hint={`At least ${PASSWORD_LENGTH_MIN} characters, hard to guess: common passwords and predictable patterns are refused.`}
        maxLength={PASSWORD_LENGTH_MAX}
        {...fieldError(errors.password)}
        {...form.register('password')}
      />
      <PasswordStrength password={form.watch('password')} />
      <PasswordField
        label={`Confirm ${label.toLowerCase()}`}
        autoComplete="new-password"
        maxLength={PASSWORD_LENGTH_MAX}
        {...fieldError(errors.confirmPassword)}
        {...form.register('confirmPassword')}
      />
    </>
  );
}
