import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import {
  formatRate,
  LOAN_DURATION_MONTHS_MAX,
  LOAN_DURATION_MONTHS_MIN,
  LOAN_FAILURE_MESSAGE,
  LOAN_PRODUCTS,
  LOAN_PURPOSE_LENGTH_MAX,
  LOAN_SUCCESS_MESSAGE,
  LOAN_TYPES,
  monthlyPaymentCents,
  ZLoanApplication,
  type LoanType,
} from '../../../../shared/contracts/loans';
import { dollarsToCents } from '../../../../shared/money';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { AmountField, SelectField, TextAreaField, TextField } from '../../../components/ui/form';
import { ApiError } from '../../../lib/api';
import { formatCents } from '../../../lib/format';
import { contractResolver, useFormAction, fieldError } from '../../../lib/form';
import { paths } from '../../../paths';
import { applyForLoan } from '../api';

interface LoanValues {
  loanAmount: string;
  loanType: LoanType;
  loanDuration: string;
  loanPurpose: string;
}

const ALL_REQUIRED = 'All fields are required';

/** The loan application (spec: loanAmount, loanType, loanDuration, loanPurpose) with a live monthly payment. */
export function LoanApplyForm() {
  const form = useForm<LoanValues>({
    resolver: contractResolver(ZLoanApplication, { required: { fields: ['loanAmount', 'loanDuration', 'loanPurpose'], message: ALL_REQUIRED } }),
    defaultValues: { loanAmount: '', loanType: 'personal', loanDuration: '36', loanPurpose: '' },
  });
  const { errors } = form.formState;
  const action = useFormAction(
    form,
    (values) =>
      applyForLoan({
        loanAmount: values.loanAmount.trim(),
        loanType: values.loanType,
        loanDuration: Number(values.loanDuration),
        loanPurpose: values.loanPurpose.trim(),
      }),
    {
      // A refusal the customer can fix says why; anything else gets the spec's message.
      errorText: (caught) =>
        caught instanceof ApiError && caught.status >= 400 && caught.status < 500 && caught.status !== 401 ? caught.message : LOAN_FAILURE_MESSAGE,
      onSuccess: (_message, values) => form.reset({ ...values, loanAmount: '', loanPurpose: '' }),
    },
  );

  const [loanType, loanAmount, loanDuration] = form.watch(['loanType', 'loanAmount', 'loanDuration']);
  const product = LOAN_PRODUCTS[loanType];
  const cents = dollarsToCents(loanAmount);
  const months = Number(loanDuration);
  const validTerms =
    cents !== null &&
    cents >= product.minCents &&
    cents <= product.maxCents &&
    Number.isInteger(months) &&
    months >= LOAN_DURATION_MONTHS_MIN &&
    months <= LOAN_DURATION_MONTHS_MAX;
  const payment = validTerms ? monthlyPaymentCents(cents, product.annualRateBps, months) : null;

  return (
    <form onSubmit={action.submit} noValidate className="space-y-5">
      {action.error ? <Alert tone="error">{action.error.message}</Alert> : null}
      {action.done ? (
        <Alert tone="success">
          {action.result ?? LOAN_SUCCESS_MESSAGE}{' '}
          <Link to={paths.accountLoans} className="font-semibold underline">
            See your loans
          </Link>
        </Alert>
      ) : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField label="Loan type" {...fieldError(errors.loanType)} {...form.register('loanType')}>
          {LOAN_TYPES.map((type) => (
            <option key={type} value={type}>
              {LOAN_PRODUCTS[type].label}
            </option>
          ))}
        </SelectField>
        <AmountField
          label="Loan amount (USD)"
          required
          maxLength={12}
          hint={`${formatCents(product.minCents)} to ${formatCents(product.maxCents)}`}
          {...fieldError(errors.loanAmount)}
          {...form.register('loanAmount')}
        />
        <TextField
          label="Loan duration (months)"
          type="number"
          min={LOAN_DURATION_MONTHS_MIN}
          max={LOAN_DURATION_MONTHS_MAX}
          step={1}
          required
          hint={`${LOAN_DURATION_MONTHS_MIN} to ${LOAN_DURATION_MONTHS_MAX} months`}
          {...fieldError(errors.loanDuration)}
          {...form.register('loanDuration')}
        />
        <div className="rounded-lg border border-brand-200 bg-brand-50 p-4" aria-live="polite">
          <p className="text-sm text-slate-800">Estimated monthly payment</p>
          <p className="text-2xl font-bold text-slate-900">{payment !== null ? formatCents(payment) : '-'}</p>
          <p className="text-sm text-slate-800">
            at an indicative {formatRate(product.annualRateBps)} a year{payment !== null ? `, ${formatCents(payment * months)} in total` : ''}
          </p>
        </div>
      </div>
      <TextAreaField
        label="Loan purpose"
        required
        rows={4}
        maxLength={LOAN_PURPOSE_LENGTH_MAX}
        {...fieldError(errors.loanPurpose)}
        {...form.register('loanPurpose')}
      />
      <p className="text-sm text-slate-700">
        Rates are indicative; the bank confirms the terms when it decides. Decisions take 1-3 business days (personal) or 5-10 (business).
      </p>
      <Button type="submit" disabled={action.busy}>
        {action.busy ? 'Submitting...' : 'Apply'}
      </Button>
    </form>
  );
}
