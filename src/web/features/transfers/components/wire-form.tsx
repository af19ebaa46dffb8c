import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ZWireTransferRequest, type WireTransferRequest } from '../../../../shared/contracts/transactions';
import { NAME_LENGTH_MAX, TEXT_LENGTH_MAX } from '../../../../shared/limits';
import { WIRE_ACCOUNT_TYPES, wireCountries } from '../../../../shared/wire';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { AmountField, SelectField, TextField } from '../../../components/ui/form';
import { PasskeyApproval } from '../../../components/ui/passkey-approval';
import { useApprovalSteps } from '../../../lib/approval-steps';
import { formatDollars } from '../../../lib/format';
import { contractResolver, fieldError } from '../../../lib/form';
import { useCurrentUser } from '../../../lib/current-user';
import type { ApprovalFields } from '../../../lib/passkey-approval';
import { paths } from '../../../paths';
import { sendWire } from '../api';
import { CodeStep } from './code-step';
import { PayeeCheckNotice } from '../../../components/ui/payee-check-notice';
import { transferResultState } from './transfer-result';

interface WireValues {
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

const FILL_ALL = 'Please fill all fields';

export function WireForm() {
  const user = useCurrentUser();
  const countries = useMemo(() => wireCountries(), []);
  const navigate = useNavigate();
  const toRequest = (values: WireValues, approval?: ApprovalFields): WireTransferRequest => ({
    account: values.account,
    amount: values.amount.trim(),
    beneficiaryName: values.beneficiaryName.trim(),
    beneficiaryAccount: values.beneficiaryAccount.trim(),
    bankName: values.bankName.trim(),
    country: values.country,
    swiftCode: values.swiftCode.trim().toUpperCase(),
    accountType: values.accountType as WireTransferRequest['accountType'],
    description: values.description.trim() || undefined,
    ...approval,
  });
  const form = useForm<WireValues>({
    resolver: contractResolver(ZWireTransferRequest, {
      toInput: (values) => toRequest(values),
      // The spec's one message for any empty field (the two selects included), before the contract's own.
      required: { fields: ['amount', 'beneficiaryName', 'beneficiaryAccount', 'bankName', 'country', 'swiftCode', 'accountType'], message: FILL_ALL },
      check: (values) => {
        if (values.beneficiaryAccount.replace(/\s+/g, '') === user.account.number) return { beneficiaryAccount: 'You cannot transfer to the same account' };
        return Number(values.amount) > user.account[values.account] ? { amount: 'Insufficient funds' } : null;
      },
    }),
    defaultValues: {
      account: 'checking',
      amount: '',
      beneficiaryName: '',
      beneficiaryAccount: '',
      bankName: '',
      country: '',
      swiftCode: '',
      accountType: '',
      description: '',
    },
  });
  const { errors } = form.formState;
  const transfer = useApprovalSteps(form, toRequest, sendWire, ({ line }, values) =>
    navigate(paths.accountTransactions, {
      state: transferResultState(
        `${formatDollars(line.amount)} is on its way to ${values.beneficiaryName.trim()}. Your ${line.account} balance is now ${formatDollars(line.balanceAfter)}.`,
        null,
      ),
    }),
  );

  if (transfer.passkey) {
    const values = form.getValues();
    return (
      <PasskeyApproval
        step={transfer.passkey}
        noun="wire transfer"
        rows={[
          ['From', values.account === 'savings' ? 'Savings' : 'Checking'],
          ['Beneficiary account', values.beneficiaryAccount],
          ['SWIFT/BIC', values.swiftCode.toUpperCase()],
        ]}
        notice={<PayeeCheckNotice check={transfer.passkey.payeeCheck} />}
        approve={transfer.approve}
        useCode={transfer.useCode}
        onBack={transfer.back}
      />
    );
  }

  if (transfer.code) {
    const values = form.getValues();
    const country = countries.find((option) => option.code === values.country)?.name ?? values.country;
    return (
      <CodeStep
        code={transfer.code}
        notice={<PayeeCheckNotice check={transfer.code.payeeCheck} />}
        confirm={transfer.confirm}
        resend={transfer.resend}
        onBack={transfer.back}
        rows={[
          ['From', values.account === 'savings' ? 'Savings' : 'Checking'],
          ['Amount', formatDollars(Number(values.amount))],
          ['Beneficiary', values.beneficiaryName],
          ['Beneficiary account', values.beneficiaryAccount],
          ['Bank', `${values.bankName} (${values.swiftCode.toUpperCase()})`],
          ['Country', country],
          ['Account type', values.accountType],
        ]}
      />
    );
  }

  const { start } = transfer;
  return (
    <form noValidate aria-label="Wire transfer" className="space-y-4" onSubmit={start.submit}>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="From account" {...fieldError(errors.account)} {...form.register('account')}>
          <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
          <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
        </SelectField>
        <AmountField label="Amount (USD)" {...fieldError(errors.amount)} {...form.register('amount')} />
      </div>
      <TextField label="Beneficiary name" maxLength={NAME_LENGTH_MAX} {...fieldError(errors.beneficiaryName)} {...form.register('beneficiaryName')} />
      <TextField
        label="Beneficiary account (IBAN or account number)"
        maxLength={40}
        {...fieldError(errors.beneficiaryAccount)}
        {...form.register('beneficiaryAccount')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Bank name" maxLength={NAME_LENGTH_MAX} {...fieldError(errors.bankName)} {...form.register('bankName')} />
        <SelectField label="Country" {...fieldError(errors.country)} {...form.register('country')}>
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
          hint="8 or 11 characters, e.g. CHASUS33"
          {...fieldError(errors.swiftCode)}
          {...form.register('swiftCode')}
        />
        <SelectField label="Account type" {...fieldError(errors.accountType)} {...form.register('accountType')}>
          <option value="">Choose an account type</option>
          {WIRE_ACCOUNT_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField label="Description (optional)" maxLength={TEXT_LENGTH_MAX} {...fieldError(errors.description)} {...form.register('description')} />
      {start.error ? <Alert tone="error">{start.error.message}</Alert> : null}
      <Button type="submit" disabled={start.busy}>
        {start.busy ? 'Sending...' : 'Continue'}
      </Button>
    </form>
  );
}
