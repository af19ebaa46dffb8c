import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { NO_BENEFICIARIES_MESSAGE, transferLinkFor, type BeneficiaryDto } from '../../../../shared/contracts/beneficiaries';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClass } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api';
import { beneficiariesQuery, removeBeneficiary, saveBeneficiary } from '../api';

function Row({ beneficiary }: { beneficiary: BeneficiaryDto }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => removeBeneficiary(beneficiary._id),
    onSuccess: async (message) => {
      toast.success(message ?? 'Beneficiary removed');
      await queryClient.invalidateQueries({ queryKey: ['beneficiaries'] });
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-5 py-4">
      <div>
        <p className="font-semibold text-slate-900">{beneficiary.name}</p>
        <p className="text-sm text-slate-700">
          Account {beneficiary.accountNumber}
          {beneficiary.bankName ? ` · ${beneficiary.bankName}` : ''}
          {beneficiary.routingNumber ? ` · routing ${beneficiary.routingNumber}` : ''}
        </p>
      </div>
      <div className="flex gap-2">
        <Link to={transferLinkFor(beneficiary)} className={buttonClass('primary')}>
          Use<span className="sr-only"> {beneficiary.name} for a transfer</span>
        </Link>
        <Button
          variant="secondary"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(`Remove ${beneficiary.name} from your beneficiaries?`)) remove.mutate();
          }}
        >
          Remove<span className="sr-only"> {beneficiary.name}</span>
        </Button>
      </div>
    </li>
  );
}

function AddBeneficiary() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [routingNumber, setRoutingNumber] = useState('');
  const [bankName, setBankName] = useState('');
  const [error, setError] = useState('');
  const save = useMutation({
    mutationFn: () =>
      saveBeneficiary({ name: name.trim(), accountNumber: accountNumber.trim(), routingNumber: routingNumber.trim(), bankName: bankName.trim() }),
    onSuccess: async (message) => {
      toast.success(message ?? 'Beneficiary saved');
      setName('');
      setAccountNumber('');
      setRoutingNumber('');
      setBankName('');
      setError('');
      await queryClient.invalidateQueries({ queryKey: ['beneficiaries'] });
    },
    onError: (caught) => setError(errorMessage(caught)),
  });
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim() || !accountNumber.trim()) {
      setError('Name and account number are required');
      return;
    }
    save.mutate();
  }
  return (
    <details className="rounded-xl border border-slate-200 bg-white p-5">
      <summary className="cursor-pointer font-semibold text-brand-800">Add a beneficiary</summary>
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={80} />
          <TextField
            label="Account number"
            inputMode="numeric"
            value={accountNumber}
            onChange={(event) => setAccountNumber(event.target.value)}
            required
            maxLength={17}
          />
          <TextField
            label="Routing number"
            inputMode="numeric"
            value={routingNumber}
            onChange={(event) => setRoutingNumber(event.target.value)}
            maxLength={9}
            hint="Leave empty for an account at this bank."
          />
          <TextField label="Bank name" value={bankName} onChange={(event) => setBankName(event.target.value)} maxLength={80} />
        </div>
        <Button type="submit" disabled={save.isPending}>
          Save beneficiary
        </Button>
      </form>
    </details>
  );
}

export function BeneficiaryList() {
  const { data, isPending, error } = useQuery(beneficiariesQuery);
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
