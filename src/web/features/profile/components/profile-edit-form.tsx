import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ZProfileUpdateRequest, type ProfileUpdateRequest } from '../../../../shared/contracts/profile';
import type { UserDto } from '../../../../shared/contracts/user';
import { ADDRESS_LENGTH_MAX, OTP_LENGTH, PASSWORD_LENGTH_MAX, PHONE_LENGTH_MAX, STATE_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FreshFactorField } from '../../../components/ui/fresh-factor-field';
import { EmailField, PasswordField, TextField } from '../../../components/ui/form';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { updateProfile } from '../api';

interface ProfileValues {
  email: string;
  phoneNumber: string;
  address: string;
  state: string;
  password: string;
  emailCode: string;
  secondFactorCode: string;
}

const PASSWORD_NEEDED = 'Please enter your current password to change your email address.';

/**
 * Edit Profile: names read-only; email, phone, address and state editable. A new email needs the
 * current password and, for an account with a second factor, a fresh one (a code from the app, a
 * recovery code, or the passkey the browser asks for: ADR 025), then the code the bank mails to
 * the new address.
 */
export function ProfileEditForm({
  user,
  factors,
  stepUpWithPasskey,
}: {
  user: UserDto;
  factors: { totp: boolean; passkeys: number } | undefined;
  stepUpWithPasskey: () => Promise<AuthenticationResponseJSON>;
}) {
  const hasPasskey = (factors?.passkeys ?? 0) > 0;
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const changedEmail = (values: Pick<ProfileValues, 'email'>) => {
    const email = values.email.trim().toLowerCase();
    return email !== user.email ? email : null;
  };
  /** PATCH /user/profile's body: the names unchanged, the email only when it changes (with the password, then the code). */
  const toRequest = (values: ProfileValues): ProfileUpdateRequest => {
    const email = changedEmail(values);
    return {
      firstName: user.firstName,
      lastName: user.lastName,
      phoneNumber: values.phoneNumber.trim(),
      address: values.address.trim(),
      state: values.state.trim(),
      ...(email
        ? {
            email,
            ...(codeSentTo === email
              ? { emailCode: values.emailCode.trim() }
              : { password: values.password, ...(values.secondFactorCode.trim() ? { secondFactorCode: values.secondFactorCode.trim() } : {}) }),
          }
        : {}),
    };
  };
  const form = useForm<ProfileValues>({
    resolver: contractResolver(ZProfileUpdateRequest, {
      toInput: toRequest,
      required: { fields: ['email', 'phoneNumber', 'address', 'state'], message: 'All fields are required' },
      check: (values) => {
        const email = changedEmail(values);
        return email && codeSentTo !== email && !values.password ? { password: PASSWORD_NEEDED } : null;
      },
    }),
    defaultValues: {
      email: user.email,
      phoneNumber: user.phone,
      address: user.location.address,
      state: user.location.state,
      password: '',
      emailCode: '',
      secondFactorCode: '',
    },
  });
  const { errors } = form.formState;
  const action = useFormAction(
    form,
    async (values) => {
      const body = toRequest(values);
      // Starting an email change on an account with a passkey and no code typed: the passkey confirms it.
      const needsPasskey = body.email && body.password !== undefined && !body.secondFactorCode && hasPasskey;
      return updateProfile(
        needsPasskey ? { ...body, secondFactorPasskey: (await stepUpWithPasskey()) as NonNullable<ProfileUpdateRequest['secondFactorPasskey']> } : body,
      );
    },
    {
      onSuccess: (answer, values) => {
        form.setValue('password', '');
        form.setValue('secondFactorCode', '');
        if (answer.emailChangePending) setCodeSentTo(changedEmail(values));
        else {
          setCodeSentTo(null);
          form.reset({ ...values, email: answer.user.email, phoneNumber: answer.user.phone, password: '', emailCode: '', secondFactorCode: '' });
        }
      },
    },
  );

  const email = changedEmail({ email: form.watch('email') });
  const awaitingCode = email !== null && codeSentTo === email;
  return (
    <form onSubmit={action.submit} noValidate className="space-y-5">
      {action.done ? (
        <div role="status" className="rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-800">
          {action.result?.message}
        </div>
      ) : null}
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="First name" value={user.firstName} readOnly hint="Contact support to change your name." />
        <TextField label="Last name" value={user.lastName} readOnly />
        <EmailField autoComplete="email" {...fieldError(errors.email)} {...form.register('email')} />
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          required
          maxLength={PHONE_LENGTH_MAX + 5}
          hint="With the country code, e.g. +1 202 555 0101"
          {...fieldError(errors.phoneNumber)}
          {...form.register('phoneNumber')}
        />
        <TextField
          label="Address"
          autoComplete="street-address"
          required
          maxLength={ADDRESS_LENGTH_MAX}
          {...fieldError(errors.address)}
          {...form.register('address')}
        />
        <TextField
          label="State"
          autoComplete="address-level1"
          required
          maxLength={STATE_LENGTH_MAX}
          {...fieldError(errors.state)}
          {...form.register('state')}
        />
      </div>
      {email && !awaitingCode ? (
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          required
          maxLength={PASSWORD_LENGTH_MAX}
          hint="Needed to change your email address."
          {...fieldError(errors.password)}
          {...form.register('password')}
        />
      ) : null}
      {email && !awaitingCode ? <FreshFactorField factors={factors} {...fieldError(errors.secondFactorCode)} {...form.register('secondFactorCode')} /> : null}
      {awaitingCode ? (
        <TextField
          label="Code sent to your new email"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          maxLength={OTP_LENGTH}
          hint={`Enter the 6-digit code we sent to ${codeSentTo}.`}
          {...fieldError(errors.emailCode)}
          {...form.register('emailCode')}
        />
      ) : null}
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Saving...' : awaitingCode ? 'Confirm new email' : 'Update Profile'}
      </Button>
    </form>
  );
}
