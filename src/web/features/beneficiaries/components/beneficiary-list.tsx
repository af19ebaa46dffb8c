import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { NO_BENEFICIARIES_MESSAGE, transferLinkFor, ZBeneficiaryRequest, type BeneficiaryDto } from '../../../../shared/contracts/beneficiaries';
import { NAME_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClass } from '../../../components/ui/button';
import { ConfirmInline } from '../../../components/ui/confirm-inline';
import { TextField } from '../../../components/ui/form';
import { useAction } from '../../../lib/action';
import { errorMessage } from '../../../lib/api';
import { contractResolver, useFormAction, fieldError } from '../../../lib/form';
import { beneficiariesQuery, removeBeneficiary, saveBeneficiary } from '../api';

function Row({ beneficiary }: { beneficiary: BeneficiaryDto }) {
  const remove = useAction(() => removeBeneficiary(beneficiary._id), { successToast: (message) => message ?? 'Beneficiary removed', errorToast: true });
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-5 py-4">
      <div>
        <p className="font-semibold text-slate-900 wrap-anywhere">{beneficiary.name}</p>
        <p className="text-sm text-slate-700">
          Account {beneficiary.accountNumber}
          {beneficiary.bankName ? ` · ${beneficiary.bankName}` : ''}
          {beneficiary.routingNumber ? ` · routing ${beneficiary.routingNumber}` : ''}
        </p>
      </div>
      {/* The question takes the place of both buttons, on a line of its own under the payee. */}
      <ConfirmInline
        question={`Remove ${beneficiary.name} from your beneficiaries?`}
        confirmLabel="Remove"
        busyLabel="Removing..."
        tone="danger"
        onConfirm={() => remove.run()}
      >
        {(opener) => (
          <div className="flex gap-2">
            <Link to={transferLinkFor(beneficiary)} className={buttonClass('primary')}>
              Use<span className="sr-only"> {beneficiary.name} for a transfer</span>
            </Link>
            <Button {...opener} variant="secondary" disabled={remove.busy}>
              Remove<span className="sr-only"> {beneficiary.name}</span>
            </Button>
          </div>
        )}
      </ConfirmInline>
    </li>
  );
}

interface PayeeValues {
  name: string;
  accountNumber: string;
  routingNumber: string;
  bankName: string;
}
const empty: PayeeValues = { name: '', accountNumber: '', routingNumber: '', bankName: '' };

function AddBeneficiary() {
  const form = useForm<PayeeValues>({
    resolver: contractResolver(ZBeneficiaryRequest, { required: { fields: ['name', 'accountNumber'], message: 'Name and account number are required' } }),
    defaultValues: empty,
  });
  const { errors } = form.formState;
  const action = useFormAction(
    form,
    (values) =>
      saveBeneficiary({
        name: values.name.trim(),
        accountNumber: values.accountNumber.trim(),
        routingNumber: values.routingNumber.trim(),
        bankName: values.bankName.trim(),
      }),
    { successToast: (message) => message ?? 'Beneficiary saved', onSuccess: () => form.reset(empty) },
  );
  return (
    <details className="rounded-xl border border-slate-200 bg-white p-5">
      <summary className="cursor-pointer font-semibold text-brand-800">Add a beneficiary</summary>
      <form onSubmit={action.submit} noValidate className="mt-4 space-y-4">
        {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Name" required maxLength={NAME_LENGTH_MAX} {...fieldError(errors.name)} {...form.register('name')} />
          <TextField
            label="Account number"
            inputMode="numeric"
            required
            maxLength={17}
            {...fieldError(errors.accountNumber)}
            {...form.register('accountNumber')}
          />
          <TextField
            label="Routing number"
            inputMode="numeric"
            maxLength={9}
            hint="Leave empty for an account at this bank."
            {...fieldError(errors.routingNumber)}
            {...form.register('routingNumber')}
          />
          <TextField label="Bank name" maxLength={NAME_LENGTH_MAX} {...fieldError(errors.bankName)} {...form.register('bankName')} />
        </div>
        <Button type="submit" disabled={action.busy}>
          Save beneficiary
        </Button>
      </form>
    </details>
  );
}

export function BeneficiaryList() {
  const { data, isPending, error } = useQuery(beneficiariesQuery());
  return (
    <div className="space-y-6">
      {isPending ? <p role="status">Loading...</p> : null}
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {data && data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">{NO_BENEFICIARIES_MESSAGE}</p>
      ) : null}
      {data && data.length > 0 ? (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" aria-label="Beneficiaries">
          {data.map((beneficiary) => (
            <Row key={beneficiary._id} beneficiary={beneficiary} />
          ))}
        </ul>
      ) : null}
      <AddBeneficiary />
    </div>
  );
}
