import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { WireTransferRequest } from '../../../../shared/contracts/transactions';
import { WIRE_ACCOUNT_TYPES, wireCountries } from '../../../../shared/wire';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/form';
import { useCurrentUser } from '../../../lib/query';
import { paths } from '../../../paths';
import { formatDollars } from '../../../lib/format';
import { useCodedTransfer } from '../use-coded-transfer';
import { sendWire } from '../api';
import { CodeStep } from './code-step';
import { transferResultState } from './transfer-result';

interface Values {
  account: 'savings' | 'checking';
  amount: string;
  beneficiaryName: string;
  beneficiaryAccount: string;
  bankName: string;
  country: string;
  swiftCode: string;
  accountType: string;
  description: string;
}

export function WireForm() {
  const user = useCurrentUser();
  const countries = useMemo(() => wireCountries(), []);
  const [values, setValues] = useState<Values>({
    account: 'checking',
    amount: '',
    beneficiaryName: '',
    beneficiaryAccount: '',
    bankName: '',
    country: '',
    swiftCode: '',
    accountType: '',
    description: '',
  });
  const navigate = useNavigate();
  const { step, setStep, code, error, setError, busy, submit } = useCodedTransfer(sendWire, (line) =>
    navigate(paths.accountTransactions, {
      state: transferResultState(
        `${formatDollars(line.amount)} is on its way to ${values.beneficiaryName.trim()}. Your ${line.account} balance is now ${formatDollars(line.balanceAfter)}.`,
        null,
      ),
    }),
  );
  const set = (name: keyof Values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value }));

  const body = (paymentPin?: string): WireTransferRequest => ({
    account: values.account,
    amount: values.amount.trim(),
    beneficiaryName: values.beneficiaryName.trim(),
    beneficiaryAccount: values.beneficiaryAccount.trim(),
    bankName: values.bankName.trim(),
    country: values.country,
    swiftCode: values.swiftCode.trim().toUpperCase(),
    accountType: values.accountType as WireTransferRequest['accountType'],
    ...(values.description.trim() ? { description: values.description.trim() } : {}),
    ...(paymentPin !== undefined ? { paymentPin } : {}),
  });

  const validate = (): string | null => {
    const required = [values.amount, values.beneficiaryName, values.beneficiaryAccount, values.bankName, values.country, values.swiftCode, values.accountType];
    if (required.some((value) => !value.trim())) return 'Please fill all fields';
    if (values.beneficiaryAccount.replace(/\s+/g, '') === user.account.number) return 'You cannot transfer to the same account';
    const amount = Number(values.amount);
    if (!Number.isFinite(amount) || amount <= 0) return 'Amount must be greater than 0';
    if (amount > user.account[values.account]) return 'Insufficient funds';
    return null;
  };

  const call = (paymentPin?: string) => submit(body(paymentPin));

  if (step === 'code' && code) {
    const country = countries.find((option) => option.code === values.country)?.name ?? values.country;
    return (
      <CodeStep
        code={code}
        busy={busy}
        error={error}
        rows={[
          ['From', values.account === 'savings' ? 'Savings' : 'Checking'],
          ['Amount', formatDollars(Number(values.amount))],
          ['Beneficiary', values.beneficiaryName],
          ['Beneficiary account', values.beneficiaryAccount],
          ['Bank', `${values.bankName} (${values.swiftCode.toUpperCase()})`],
          ['Country', country],
          ['Account type', values.accountType],
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
    <form
      noValidate
      aria-label="Wire transfer"
      className="space-y-4"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        const problem = validate();
        if (problem) setError(problem);
        else void call();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="From account" value={values.account} onChange={set('account')}>
          <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
          <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
        </SelectField>
        <TextField label="Amount (USD)" type="number" min="1" step="0.01" inputMode="decimal" value={values.amount} onChange={set('amount')} />
      </div>
      <TextField label="Beneficiary name" maxLength={80} value={values.beneficiaryName} onChange={set('beneficiaryName')} />
      <TextField label="Beneficiary account (IBAN or account number)" maxLength={40} value={values.beneficiaryAccount} onChange={set('beneficiaryAccount')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Bank name" maxLength={80} value={values.bankName} onChange={set('bankName')} />
        <SelectField label="Country" value={values.country} onChange={set('country')}>
          <option value="">Choose a country</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </SelectField>
        <TextField
          label="SWIFT/BIC code"
          maxLength={11}
          autoCapitalize="characters"
          value={values.swiftCode}
          onChange={set('swiftCode')}
          hint="8 or 11 characters, e.g. CHASUS33"
        />
        <SelectField label="Account type" value={values.accountType} onChange={set('accountType')}>
          <option value="">Choose an account type</option>
          {WIRE_ACCOUNT_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField label="Description (optional)" maxLength={500} value={values.description} onChange={set('description')} />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending...' : 'Continue'}
      </Button>
    </form>
  );
}
