import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import {
  STANDING_ORDER_COUNT_MAX,
  STANDING_ORDER_FREQUENCY_LABELS,
  STANDING_ORDER_DESCRIPTION_LENGTH_MAX,
  ZStandingOrderRequest,
  type StandingOrderRequest,
} from '../../../../shared/contracts/standing-orders';
import type { BeneficiaryDto } from '../../../../shared/contracts/beneficiaries';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { todayIso } from '../../../../shared/dates';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { AmountField, SelectField, TextField } from '../../../components/ui/form';
import type { Action } from '../../../lib/action';
import { useApprovalSteps } from '../../../lib/approval-steps';
import { useCurrentUser } from '../../../lib/current-user';
import { formatDate, formatDollars } from '../../../lib/format';
import { contractResolver, fieldError } from '../../../lib/form';
import type { ApprovalFields } from '../../../lib/passkey-approval';
import { PasskeyApproval } from '../../../components/ui/passkey-approval';
import { PaymentCodeStep } from '../../../components/ui/payment-code-step';
import { PayeeCheckNotice } from '../../../components/ui/payee-check-notice';
import { NAME_LENGTH_MAX } from '../../../../shared/limits';
import { createStandingOrder, type StandingOrderStep } from '../api/create-standing-order';

interface Values {
  from: 'checking' | 'savings';
  toKind: 'customer' | 'payee' | 'own';
  payeeId: string;
  accountNumber: string;
  recipientName: string;
  amount: string;
  description: string;
  frequency: 'monthly' | 'weekly' | 'once';
  startDate: string;
  endDate: string;
  count: string;
}

/** The form's label for the contract's parameter name in its messages ("count must be at least 1"). */
const LABELS = { count: 'Number of payments' } as const;

function toRequest(values: Values, approval?: ApprovalFields): StandingOrderRequest {
  const to =
    values.toKind === 'own'
      ? { kind: 'own' as const }
      : values.toKind === 'payee'
        ? { kind: 'payee' as const, payeeId: values.payeeId || undefined }
        : { kind: 'customer' as const, accountNumber: values.accountNumber.trim(), name: values.recipientName.trim() || undefined };
  const count = values.count.trim();
  return {
    from: values.from,
    to,
    amount: values.amount.trim(),
    description: values.description,
    frequency: values.frequency,
    startDate: values.startDate,
    endDate: values.frequency === 'once' ? undefined : values.endDate || undefined,
    count: values.frequency === 'once' || count === '' ? undefined : Number(count),
    ...approval,
  };
}

/**
 * A new standing order: the form, then (to another account) the summary with the IMS code the bank
 * emailed for exactly this mandate, as the transfer page does. Between own accounts no code is asked.
 */
export function StandingOrderForm({ payees }: { payees: BeneficiaryDto[] }) {
  const user = useCurrentUser();
  const form = useForm<Values>({
    resolver: contractResolver(ZStandingOrderRequest, {
      toInput: (values) => toRequest(values),
      fieldOf: { 'to.kind': 'toKind', 'to.payeeId': 'payeeId', 'to.accountNumber': 'accountNumber', 'to.name': 'recipientName' },
      labels: LABELS,
      // The API takes an account number alone; the page asks whose it is, so the bank can check the
      // name against the holder before the mandate is approved (ADR 029).
      check: (values) => (values.toKind === 'customer' && values.recipientName.trim() === '' ? { recipientName: "Please enter the recipient's name" } : null),
    }),
    defaultValues: {
      from: 'checking',
      toKind: 'customer',
      payeeId: '',
      accountNumber: '',
      recipientName: '',
      amount: '',
      description: '',
      frequency: 'monthly',
      startDate: todayIso(),
      endDate: '',
      count: '',
    },
  });
  // A mandate made: back to an empty form (the list above shows it).
  const { code, passkey, start, confirm, resend, approve, useCode, back } = useApprovalSteps(form, toRequest, createStandingOrder, () => form.reset());

  // A close match's "Use <name>": back to the form with the holder's name (the approval was for the name typed).
  const useHolderName = (name: string) => {
    form.setValue('recipientName', name, { shouldDirty: true });
    back();
    setTimeout(() => form.setFocus('recipientName'), 0);
  };

  // Only a name typed on this form can be changed from the step; a saved payee's stays as saved.
  const onUseName = form.getValues('toKind') === 'customer' ? useHolderName : undefined;

  if (passkey) {
    const values = form.getValues();
    return (
      <PasskeyApproval
        step={passkey}
        noun="standing order"
        rows={[
          ['From', `${values.from === 'savings' ? 'Savings' : 'Checking'} (${user.account.number})`],
          ['How often', STANDING_ORDER_FREQUENCY_LABELS[values.frequency]],
          ['First payment', formatDate(values.startDate)],
        ]}
        notice={<PayeeCheckNotice check={passkey.payeeCheck} onUseName={onUseName} />}
        approve={approve}
        useCode={useCode}
        onBack={back}
      />
    );
  }

  if (code)
    return (
      <CodeStep
        values={form.getValues()}
        payee={code.payee}
        code={code}
        notice={<PayeeCheckNotice check={code.payeeCheck} onUseName={onUseName} />}
        confirm={confirm}
        resend={resend}
        onBack={back}
        accountNumber={user.account.number}
      />
    );

  const { errors } = form.formState;
  const toKind = form.watch('toKind');
  const frequency = form.watch('frequency');
  return (
    <form onSubmit={start.submit} noValidate className="space-y-4" aria-label="New standing order">
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="From account" {...fieldError(errors.from)} {...form.register('from')}>
          <option value="checking">Checking ({formatDollars(user.account.checking)})</option>
          <option value="savings">Savings ({formatDollars(user.account.savings)})</option>
        </SelectField>
        <SelectField label="Pay to" {...fieldError(errors.toKind)} {...form.register('toKind')}>
          <option value="customer">Another customer of this bank</option>
          <option value="payee">A saved payee</option>
          <option value="own">My other account</option>
        </SelectField>
      </div>
      {toKind === 'payee' ? (
        <SelectField
          label="Payee"
          {...fieldError(errors.payeeId)}
          hint={payees.length === 0 ? 'You have no saved payees yet: save one on the Beneficiaries page.' : undefined}
          {...form.register('payeeId')}
        >
          <option value="">Choose a payee</option>
          {payees.map((payee) => (
            <option key={payee._id} value={payee._id}>
              {payee.name} (account ending {payee.accountNumber.slice(-4)}
              {payee.bankName ? `, ${payee.bankName}` : ''})
            </option>
          ))}
        </SelectField>
      ) : null}
      {toKind === 'customer' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Recipient name"
            autoComplete="off"
            maxLength={NAME_LENGTH_MAX}
            hint="As on their account: we check it before you approve."
            {...fieldError(errors.recipientName)}
            {...form.register('recipientName')}
          />
          <TextField
            label="Account number"
            inputMode="numeric"
            maxLength={10}
            hint="The 10-digit account number of the customer you pay."
            {...fieldError(errors.accountNumber)}
            {...form.register('accountNumber')}
          />
        </div>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <AmountField label="Amount (USD)" {...fieldError(errors.amount)} {...form.register('amount')} />
        <TextField
          label="Description"
          maxLength={STANDING_ORDER_DESCRIPTION_LENGTH_MAX}
          {...fieldError(errors.description)}
          {...form.register('description')}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="How often" {...fieldError(errors.frequency)} {...form.register('frequency')}>
          <option value="monthly">Every month</option>
          <option value="weekly">Every week</option>
          <option value="once">Once (a scheduled payment)</option>
        </SelectField>
        <TextField
          label={frequency === 'once' ? 'Payment date' : 'First payment'}
          type="date"
          hint={frequency === 'monthly' ? 'On the 29th to 31st, shorter months pay on their last day.' : undefined}
          {...fieldError(errors.startDate)}
          {...form.register('startDate')}
        />
      </div>
      {frequency !== 'once' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Last payment on or before (optional)" type="date" {...fieldError(errors.endDate)} {...form.register('endDate')} />
          <TextField
            label={`${LABELS.count} (optional)`}
            type="number"
            min="1"
            max={STANDING_ORDER_COUNT_MAX}
            step="1"
            inputMode="numeric"
            {...fieldError(errors.count)}
            {...form.register('count')}
          />
        </div>
      ) : null}
      {start.error ? <Alert tone="error">{start.error.message}</Alert> : null}
      <Button type="submit" disabled={start.busy}>
        {start.busy ? 'Sending...' : toKind === 'own' ? 'Set up standing order' : 'Continue'}
      </Button>
    </form>
  );
}

/** Step 2: the mandate's summary and the IMS code the bank emailed for exactly it. */
function CodeStep({
  values,
  payee,
  code,
  notice,
  confirm,
  resend,
  onBack,
  accountNumber,
}: {
  values: Values;
  payee: string;
  code: TransferCodeSent;
  notice: ReactNode;
  confirm: Action<string, StandingOrderStep>;
  resend: Action<void, StandingOrderStep>;
  onBack: () => void;
  accountNumber: string;
}) {
  const rows: Array<[string, string]> = [
    ['From', `${values.from === 'savings' ? 'Savings' : 'Checking'} (${accountNumber})`],
    ['To', payee],
    ['Amount', formatDollars(Number(values.amount))],
    ['Description', values.description],
    ['How often', STANDING_ORDER_FREQUENCY_LABELS[values.frequency]],
    [values.frequency === 'once' ? 'Payment date' : 'First payment', formatDate(values.startDate)],
    ...(values.frequency !== 'once' && values.endDate ? [['Last payment on or before', formatDate(values.endDate)] as [string, string]] : []),
    ...(values.frequency !== 'once' && values.count ? [['Number of payments', values.count] as [string, string]] : []),
  ];
  return (
    <PaymentCodeStep
      label="Confirm standing order"
      heading="Standing order summary"
      headingLevel={3}
      rows={rows}
      notice={notice}
      code={code}
      approves="approves only this standing order, with every payment it makes"
      submitLabel="Confirm standing order"
      confirm={confirm}
      resend={resend}
      onBack={onBack}
    />
  );
}
