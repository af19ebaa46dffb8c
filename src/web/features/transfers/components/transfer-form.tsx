import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { TransferRequest } from '../../../../shared/contracts/transactions';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form';
import { useCurrentUser } from '../../../lib/query';
import { BANK_NAME } from '../../../lib/settings';
import { paths } from '../../../paths';
import { useCodedTransfer } from '../use-coded-transfer';
import { formatDollars } from '../../../lib/format';
import { sendTransfer } from '../api';
import { CodeStep } from './code-step';
import { transferResultState } from './transfer-result';

interface Values {
  accountType: 'savings' | 'checking' | '';
  amount: string;
  to: string;
  accountNumber: string;
  routingNumber: string;
  bankName: string;
  description: string;
}

/** Money transfer in the spec's steps: form -> summary with the IMS code -> 'Transfer Successful' on /account/transactions. */
export function TransferForm() {
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const [values, setValues] = useState<Values>({
    accountType: 'checking',
    amount: '',
    to: params.get('to') ?? '',
    accountNumber: params.get('accountNumber') ?? '',
    routingNumber: params.get('routingNumber') ?? '',
    bankName: params.get('bankName') ?? '',
    description: '',
  });
  const navigate = useNavigate();
  const { step, setStep, code, error, setError, busy, submit } = useCodedTransfer(sendTransfer, (line) =>
    navigate(paths.accountTransactions, {
      state: transferResultState(
        `${formatDollars(line.amount)} left your ${line.account} account for ${values.to.trim()}. Your ${line.account} balance is now ${formatDollars(line.balanceAfter)}.`,
        {
          name: values.to.trim(),
          accountNumber: values.accountNumber.trim(),
          routingNumber: values.routingNumber.trim(),
          bankName: values.bankName.trim(),
        },
      ),
    }),
  );

  const set = (name: keyof Values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value }));

  const body = (paymentPin?: string): TransferRequest => ({
    from: user.account.number,
    amount: values.amount.trim(),
    accountType: values.accountType as 'savings' | 'checking',
    accountNumber: values.accountNumber.trim(),
    to: values.to.trim(),
    ...(values.routingNumber.trim() ? { routingNumber: values.routingNumber.trim() } : {}),
    ...(values.bankName.trim() ? { bankName: values.bankName.trim() } : {}),
    ...(values.description.trim() ? { description: values.description.trim() } : {}),
    ...(paymentPin !== undefined ? { paymentPin } : {}),
  });

  const validate = (): string | null => {
    if (!values.amount.trim() || !values.accountType || !values.to.trim() || !values.accountNumber.trim()) return 'Please fill all fields';
    const amount = Number(values.amount);
    if (!Number.isFinite(amount) || amount <= 0) return 'Amount must be greater than 0';
    const balance = values.accountType === 'savings' ? user.account.savings : user.account.checking;
    if (amount > balance) return 'Insufficient funds';
    return null;
  };

  const call = (paymentPin?: string) => submit(body(paymentPin), { resent: paymentPin === undefined && step === 'code' });

  const submitForm = (event: FormEvent) => {
    event.preventDefault();
    const problem = validate();
    if (problem) {
      setError(problem);
      return;
    }
    void call();
  };

  if (step === 'code' && code) {
    return (
      <CodeStep
        code={code}
        busy={busy}
        error={error}
        rows={[
          ['From', `${values.accountType === 'savings' ? 'Savings' : 'Checking'} (${user.account.number})`],
          ['Amount', formatDollars(Number(values.amount))],
          ['Recipient', values.to],
          ['Account number', values.accountNumber],
          ...(values.bankName ? ([['Bank', values.bankName]] as Array<[string, string]>) : []),
          ...(values.routingNumber ? ([['Routing number', values.routingNumber]] as Array<[string, string]>) : []),
          ...(values.description ? ([['Description', values.description]] as Array<[string, string]>) : []),
        ]}
        onBack={() => {
          setError(null);
          setStep('form');
        }}
        onConfirm={(pin) => void call(pin)}
        onResend={() => void call()}
      />
    );
  }

  return (
    <form onSubmit={submitForm} noValidate className="space-y-4" aria-label="Money transfer">
      <SelectField label="From account" name="accountType" value={values.accountType} onChange={set('accountType')}>
        <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
        <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
      </SelectField>
      <TextField label="Amount (USD)" name="amount" type="number" min="1" step="0.01" inputMode="decimal" value={values.amount} onChange={set('amount')} />
      <TextField label="Recipient name" name="to" autoComplete="off" maxLength={80} value={values.to} onChange={set('to')} />
      <TextField
        label="Account number"
        name="accountNumber"
        inputMode="numeric"
        maxLength={17}
        value={values.accountNumber}
        onChange={set('accountNumber')}
        hint={`A ${BANK_NAME} account number pays that customer's checking account at once.`}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Routing number"
          name="routingNumber"
          inputMode="numeric"
          maxLength={9}
          value={values.routingNumber}
          onChange={set('routingNumber')}
          hint="Needed for an account at another bank."
        />
        <TextField label="Bank name" name="bankName" maxLength={80} value={values.bankName} onChange={set('bankName')} />
      </div>
      <TextField label="Description (optional)" name="description" maxLength={500} value={values.description} onChange={set('description')} />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending...' : 'Continue'}
      </Button>
    </form>
  );
}
