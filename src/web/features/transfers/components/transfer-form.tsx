import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { ZTransferRequest, type TransferRequest } from '../../../../shared/contracts/transactions';
import { NAME_LENGTH_MAX, TEXT_LENGTH_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { AmountField, SelectField, TextField } from '../../../components/ui/form';
import { PasskeyApproval } from '../../../components/ui/passkey-approval';
import { useApprovalSteps } from '../../../lib/approval-steps';
import { formatDollars } from '../../../lib/format';
import { contractResolver, fieldError } from '../../../lib/form';
import { useCurrentUser } from '../../../lib/current-user';
import { BANK_NAME } from '../../../lib/settings';
import type { ApprovalFields } from '../../../lib/passkey-approval';
import { paths } from '../../../paths';
import { sendTransfer } from '../api';
import { CodeStep } from './code-step';
import { PayeeCheckNotice } from '../../../components/ui/payee-check-notice';
import { transferResultState } from './transfer-result';

interface TransferValues {
  accountType: 'savings' | 'checking';
  amount: string;
  to: string;
  accountNumber: string;
  routingNumber: string;
  bankName: string;
  description: string;
}

const optional = (value: string) => value.trim() || undefined;

/** Money transfer in the spec's steps: form -> summary with the IMS code -> 'Transfer Successful' on /account/transactions. */
export function TransferForm() {
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toRequest = (values: TransferValues, approval?: ApprovalFields): TransferRequest => ({
    from: user.account.number,
    amount: values.amount.trim(),
    accountType: values.accountType,
    accountNumber: values.accountNumber.trim(),
    to: values.to.trim(),
    routingNumber: optional(values.routingNumber),
    bankName: optional(values.bankName),
    description: optional(values.description),
    ...approval,
  });
  const form = useForm<TransferValues>({
    resolver: contractResolver(ZTransferRequest, {
      toInput: (values) => toRequest(values),
      // The spec checks the balance on screen before asking for a code; the server checks it again.
      check: (values) => (Number(values.amount) > user.account[values.accountType] ? { amount: 'Insufficient funds' } : null),
    }),
    // A saved payee's "Use" link fills the recipient.
    defaultValues: {
      accountType: 'checking',
      amount: '',
      to: params.get('to') ?? '',
      accountNumber: params.get('accountNumber') ?? '',
      routingNumber: params.get('routingNumber') ?? '',
      bankName: params.get('bankName') ?? '',
      description: '',
    },
  });
  const { errors } = form.formState;
  const transfer = useApprovalSteps(form, toRequest, sendTransfer, ({ line }, values) =>
    navigate(paths.accountTransactions, {
      state: transferResultState(
        `${formatDollars(line.amount)} left your ${line.account} account for ${values.to.trim()}. Your ${line.account} balance is now ${formatDollars(line.balanceAfter)}.`,
        { name: values.to.trim(), accountNumber: values.accountNumber.trim(), routingNumber: values.routingNumber.trim(), bankName: values.bankName.trim() },
      ),
    }),
  );

  // A close match's "Use <name>": back to the form with the holder's name, to continue from there
  // (the approval was for the name typed).
  const useHolderName = (name: string) => {
    form.setValue('to', name, { shouldDirty: true });
    transfer.back();
    setTimeout(() => form.setFocus('to'), 0);
  };

  if (transfer.passkey) {
    const values = form.getValues();
    return (
      <PasskeyApproval
        step={transfer.passkey}
        noun="transfer"
        rows={[
          ['From', `${values.accountType === 'savings' ? 'Savings' : 'Checking'} (${user.account.number})`],
          ['Account number', values.accountNumber],
        ]}
        notice={<PayeeCheckNotice check={transfer.passkey.payeeCheck} onUseName={useHolderName} />}
        approve={transfer.approve}
        useCode={transfer.useCode}
        onBack={transfer.back}
      />
    );
  }

  if (transfer.code) {
    const values = form.getValues();
    const optionalRows = [
      ['Bank', values.bankName],
      ['Routing number', values.routingNumber],
      ['Description', values.description],
    ].filter((row): row is [string, string] => !!row[1]);
    return (
      <CodeStep
        code={transfer.code}
        notice={<PayeeCheckNotice check={transfer.code.payeeCheck} onUseName={useHolderName} />}
        confirm={transfer.confirm}
        resend={transfer.resend}
        onBack={transfer.back}
        rows={[
          ['From', `${values.accountType === 'savings' ? 'Savings' : 'Checking'} (${user.account.number})`],
          ['Amount', formatDollars(Number(values.amount))],
          ['Recipient', values.to],
          ['Account number', values.accountNumber],
          ...optionalRows,
        ]}
      />
    );
  }

  const { start } = transfer;
  return (
    <form onSubmit={start.submit} noValidate className="space-y-4" aria-label="Money transfer">
      <SelectField label="From account" {...fieldError(errors.accountType)} {...form.register('accountType')}>
        <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
        <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
      </SelectField>
      <AmountField label="Amount (USD)" {...fieldError(errors.amount)} {...form.register('amount')} />
      <TextField label="Recipient name" autoComplete="off" maxLength={NAME_LENGTH_MAX} {...fieldError(errors.to)} {...form.register('to')} />
      <TextField
        label="Account number"
        inputMode="numeric"
        maxLength={17}
        hint={`A ${BANK_NAME} account number pays that customer's checking account at once.`}
        {...fieldError(errors.accountNumber)}
        {...form.register('accountNumber')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Routing number"
          inputMode="numeric"
          maxLength={9}
          hint="Needed for an account at another bank."
          {...fieldError(errors.routingNumber)}
          {...form.register('routingNumber')}
        />
        <TextField label="Bank name" maxLength={NAME_LENGTH_MAX} {...fieldError(errors.bankName)} {...form.register('bankName')} />
      </div>
      <TextField label="Description (optional)" maxLength={TEXT_LENGTH_MAX} {...fieldError(errors.description)} {...form.register('description')} />
      {start.error ? <Alert tone="error">{start.error.message}</Alert> : null}
      <Button type="submit" disabled={start.busy}>
        {start.busy ? 'Sending...' : 'Continue'}
      </Button>
    </form>
  );
}
