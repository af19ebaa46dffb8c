import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ADMIN_CANNOT_BE_DISABLED, ALL_FIELDS_REQUIRED, type AdminUserDto, type AdminUserUpdate } from '../../../../shared/contracts/admin';
import { ADDRESS_LENGTH_MAX, EMAIL_LENGTH_MAX, NAME_LENGTH_MAX, PHONE_LENGTH_MAX, STATE_LENGTH_MAX } from '../../../../shared/limits';
import { VERIFICATION_STATUSES } from '../../../../shared/reference';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form';
import { errorMessage, type ApiError } from '../../../lib/api';
import { updateAdminUser } from '../api';
import { paths } from '../../../paths';

const STATUS_LABELS: Record<string, string> = { awaiting: 'Awaiting', verified: 'Verified', pending: 'Pending', failed: 'Failed' };

interface FormState {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  state: string;
  verificationStatus: AdminUserUpdate['verificationStatus'];
  isBlocked: 'true' | 'false';
  isAccountDisabled: 'true' | 'false';
}

/** Edit user (spec sections 2 and 5): every field required; an admin's disabled select is locked. */
export function UserEditForm({ user }: { user: AdminUserDto }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<FormState>({
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    address: user.location.address,
    state: user.location.state,
    verificationStatus: user.verificationStatus,
    isBlocked: user.isBlocked ? 'true' : 'false',
    isAccountDisabled: user.isAccountDisabled ? 'true' : 'false',
  });
  const [error, setError] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const mutation = useMutation({
    mutationFn: (body: AdminUserUpdate) => updateAdminUser(user._id, body),
    onSuccess: async ({ message }) => {
      toast.success(message);
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
      navigate(paths.adminUser(user._id));
    },
    onError: (caught) => {
      const message = errorMessage(caught);
      setError(message);
      setFieldErrors((caught as ApiError).fields ?? {});
      toast.error(message);
    },
  });

  const set = (name: keyof FormState) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const required: Array<keyof FormState> = ['firstName', 'lastName', 'email', 'phone', 'address', 'state'];
    const missing = required.filter((name) => !form[name].trim());
    if (missing.length > 0) {
      setError(ALL_FIELDS_REQUIRED);
      setFieldErrors(Object.fromEntries(missing.map((name) => [name === 'address' || name === 'state' ? `location.${name}` : name, 'Required'])));
      return;
    }
    if (user.isAdmin && form.isAccountDisabled === 'true') {
      setError(ADMIN_CANNOT_BE_DISABLED);
      return;
    }
    setError('');
    setFieldErrors({});
    mutation.mutate({
      firstName: form.firstName.trim(),
      lastName: form.lastName.trim(),
      email: form.email.trim(),
      phone: form.phone.trim(),
      location: { address: form.address.trim(), state: form.state.trim() },
      verificationStatus: form.verificationStatus,
      isBlocked: form.isBlocked === 'true',
      isAccountDisabled: user.isAdmin ? false : form.isAccountDisabled === 'true',
    });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          name="firstName"
          autoComplete="off"
          value={form.firstName}
          onChange={set('firstName')}
          maxLength={NAME_LENGTH_MAX}
          required
          error={fieldErrors.firstName}
        />
        <TextField
          label="Last name"
          name="lastName"
          autoComplete="off"
          value={form.lastName}
          onChange={set('lastName')}
          maxLength={NAME_LENGTH_MAX}
          required
          error={fieldErrors.lastName}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          value={form.email}
          onChange={set('email')}
          maxLength={EMAIL_LENGTH_MAX}
          required
          error={fieldErrors.email}
        />
        <TextField
          label="Phone"
          name="phone"
          type="tel"
          autoComplete="off"
          value={form.phone}
          onChange={set('phone')}
          maxLength={PHONE_LENGTH_MAX}
          required
          error={fieldErrors.phone}
        />
        <TextField
          label="Address"
          name="address"
          autoComplete="off"
          value={form.address}
          onChange={set('address')}
          maxLength={ADDRESS_LENGTH_MAX}
          required
          error={fieldErrors['location.address']}
        />
        <TextField
          label="State"
          name="state"
          autoComplete="off"
          value={form.state}
          onChange={set('state')}
          maxLength={STATE_LENGTH_MAX}
          required
          error={fieldErrors['location.state']}
        />
        <SelectField label="Verification status" name="verificationStatus" value={form.verificationStatus} onChange={set('verificationStatus')}>
          {VERIFICATION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Blocked" name="isBlocked" value={form.isBlocked} onChange={set('isBlocked')} hint="A blocked customer cannot send money out.">
          <option value="false">No</option>
          <option value="true">Yes</option>
        </SelectField>
        <SelectField
          label="Disabled"
          name="isAccountDisabled"
          value={user.isAdmin ? 'false' : form.isAccountDisabled}
          onChange={set('isAccountDisabled')}
          disabled={user.isAdmin}
          hint={user.isAdmin ? ADMIN_CANNOT_BE_DISABLED : 'A disabled customer cannot sign in; their sessions end at once.'}
          error={fieldErrors.isAccountDisabled}
        >
          <option value="false">No</option>
          <option value="true">Yes</option>
        </SelectField>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Saving...' : 'Save changes'}
        </Button>
        <ButtonLink variant="secondary" to={paths.adminUser(user._id)}>
          Cancel
        </ButtonLink>
      </div>
    </form>
  );
}
