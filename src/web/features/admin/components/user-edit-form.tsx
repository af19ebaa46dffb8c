import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ADMIN_CANNOT_BE_DISABLED, ALL_FIELDS_REQUIRED, ZAdminUserUpdate, type AdminUserDto, type AdminUserUpdate } from '../../../../shared/contracts/admin';
import { ADDRESS_LENGTH_MAX, NAME_LENGTH_MAX, PHONE_LENGTH_MAX, STATE_LENGTH_MAX } from '../../../../shared/limits';
import { VERIFICATION_STATUSES } from '../../../../shared/reference';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { EmailField, SelectField, TextField } from '../../../components/ui/form';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { paths } from '../../../paths';
import { ROLES, useStaffMay } from '../../../lib/staff-access';
import { updateAdminUser } from '../api';

const STATUS_LABELS: Record<string, string> = { awaiting: 'Awaiting', verified: 'Verified', pending: 'Pending', failed: 'Failed' };

/** PUT /user/admin/{id}'s body, with the two flags as the selects hold them. */
type UserValues = Omit<AdminUserUpdate, 'isBlocked' | 'isAccountDisabled'> & { isBlocked: 'true' | 'false'; isAccountDisabled: 'true' | 'false' };

/** Edit user (spec sections 2 and 5): every field required; an admin's disabled select is locked. */
export function UserEditForm({ user }: { user: AdminUserDto }) {
  const navigate = useNavigate();
  const may = useStaffMay();
  // ADR 022: the details are support's, the status, block and access compliance's (admin both). A
  // part the role may not change is shown read-only and sent as stored, so the server sees no change.
  const details = may(ROLES.customerService);
  const flags = may(ROLES.compliance);
  const toRequest = (values: UserValues): AdminUserUpdate => ({
    ...(details
      ? {
          firstName: values.firstName.trim(),
          lastName: values.lastName.trim(),
          email: values.email.trim(),
          phone: values.phone.trim(),
          location: { address: values.location.address.trim(), state: values.location.state.trim() },
        }
      : { firstName: user.firstName, lastName: user.lastName, email: user.email, phone: user.phone, location: user.location }),
    ...(flags
      ? {
          verificationStatus: values.verificationStatus,
          isBlocked: values.isBlocked === 'true',
          // An admin account cannot be disabled: its select is locked at No.
          isAccountDisabled: user.isAdmin ? false : values.isAccountDisabled === 'true',
        }
      : { verificationStatus: user.verificationStatus, isBlocked: user.isBlocked, isAccountDisabled: user.isAccountDisabled }),
  });
  const form = useForm<UserValues>({
    resolver: contractResolver(ZAdminUserUpdate, {
      toInput: toRequest,
      required: { fields: ['firstName', 'lastName', 'email', 'phone', 'location.address', 'location.state'], message: ALL_FIELDS_REQUIRED },
    }),
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phone: user.phone,
      location: { address: user.location.address, state: user.location.state },
      verificationStatus: user.verificationStatus,
      isBlocked: user.isBlocked ? 'true' : 'false',
      isAccountDisabled: user.isAccountDisabled ? 'true' : 'false',
    },
  });
  const { errors } = form.formState;
  const action = useFormAction(form, (values) => updateAdminUser(user._id, toRequest(values)), {
    successToast: (message) => message,
    errorToast: true,
    onSuccess: () => navigate(paths.adminUser(user._id)),
  });
  const alert = action.error;

  return (
    <form onSubmit={action.submit} noValidate className="space-y-5">
      {alert ? <Alert tone="error">{alert.message}</Alert> : null}
      {!details || !flags ? (
        <p className="text-sm text-slate-700">
          {details
            ? 'Your role changes the details; the verification status, block and access are Compliance’s and shown here read-only.'
            : 'Your role changes the verification status, block and access; the details are Support’s and shown here read-only.'}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          readOnly={!details}
          label="First name"
          autoComplete="off"
          maxLength={NAME_LENGTH_MAX}
          required
          {...fieldError(errors.firstName)}
          {...form.register('firstName')}
        />
        <TextField
          readOnly={!details}
          label="Last name"
          autoComplete="off"
          maxLength={NAME_LENGTH_MAX}
          required
          {...fieldError(errors.lastName)}
          {...form.register('lastName')}
        />
        <EmailField readOnly={!details} autoComplete="off" {...fieldError(errors.email)} {...form.register('email')} />
        <TextField
          readOnly={!details}
          label="Phone"
          type="tel"
          autoComplete="off"
          maxLength={PHONE_LENGTH_MAX}
          required
          {...fieldError(errors.phone)}
          {...form.register('phone')}
        />
        <TextField
          readOnly={!details}
          label="Address"
          autoComplete="off"
          maxLength={ADDRESS_LENGTH_MAX}
          required
          {...fieldError(errors.location?.address)}
          {...form.register('location.address')}
        />
        <TextField
          readOnly={!details}
          label="State"
          autoComplete="off"
          maxLength={STATE_LENGTH_MAX}
          required
          {...fieldError(errors.location?.state)}
          {...form.register('location.state')}
        />
        <SelectField label="Verification status" {...fieldError(errors.verificationStatus)} {...form.register('verificationStatus')} disabled={!flags}>
          {VERIFICATION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Blocked"
          hint="A blocked customer cannot send money out."
          {...fieldError(errors.isBlocked)}
          {...form.register('isBlocked')}
          disabled={!flags}
        >
          <option value="false">No</option>
          <option value="true">Yes</option>
        </SelectField>
        {user.isAdmin ? (
          <SelectField label="Disabled" value="false" disabled hint={ADMIN_CANNOT_BE_DISABLED} onChange={() => undefined}>
            <option value="false">No</option>
          </SelectField>
        ) : (
          <SelectField
            label="Disabled"
            hint="A disabled customer cannot sign in; their sessions end at once."
            {...fieldError(errors.isAccountDisabled)}
            {...form.register('isAccountDisabled')}
            disabled={!flags}
          >
            <option value="false">No</option>
            <option value="true">Yes</option>
          </SelectField>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={action.busy}>
          {action.busy ? 'Saving...' : 'Save changes'}
        </Button>
        <ButtonLink variant="secondary" to={paths.adminUser(user._id)}>
          Cancel
        </ButtonLink>
      </div>
    </form>
  );
}
