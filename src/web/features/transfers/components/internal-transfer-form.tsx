import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api';
import { useCurrentUser } from '../../../lib/query';
import { paths } from '../../../paths';
import { formatDollars } from '../../../lib/format';
import { useIdempotencyKey } from '../../../lib/idempotency';
import { internalTransfer } from '../api';

type Kind = 'savings' | 'checking';

/** Between the customer's own savings and checking: no code needed. */
export function InternalTransferForm() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [from, setFrom] = useState<Kind>('savings');
  const [to, setTo] = useState<Kind>('checking');
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const idempotency = useIdempotencyKey();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!amount.trim()) return setError('Please fill all fields');
    if (from === to) return setError('You cannot transfer to the same account');
    const value = Number(amount);
    if (!Number.isFinite(value) || value <= 0) return setError('Amount must be greater than 0');
    if (value > user.account[from]) return setError('Insufficient funds');
    const body = { from, to, amount: amount.trim() };
    setBusy(true);
    setError(null);
    try {
      const answer = await internalTransfer(body, idempotency.keyFor(body));
      idempotency.settle();
      toast.success(answer.message);
      navigate(paths.accountTransactions);
    } catch (failure) {
      idempotency.settle(failure);
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Internal transfer">
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="From" name="from" value={from} onChange={(event) => setFrom(event.target.value as Kind)}>
          <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
          <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
        </SelectField>
        <SelectField label="To" name="to" value={to} onChange={(event) => setTo(event.target.value as Kind)}>
          <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
          <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
        </SelectField>
      </div>
      <TextField
        label="Amount (USD)"
        name="amount"
        type="number"
        min="1"
        step="0.01"
        inputMode="decimal"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending...' : 'Transfer'}
      </Button>
    </form>
  );
}
