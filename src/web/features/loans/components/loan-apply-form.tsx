import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  formatRate,
  LOAN_DURATION_MONTHS_MAX,
  LOAN_DURATION_MONTHS_MIN,
  LOAN_FAILURE_MESSAGE,
  LOAN_PRODUCTS,
  LOAN_SUCCESS_MESSAGE,
  LOAN_TYPES,
  type LoanType,
  monthlyPaymentCents,
} from '../../../../shared/contracts/loans';
import { dollarsToCents } from '../../../../shared/money';
import { formatCents } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/form';
import { ApiError } from '../../../lib/api';
import { applyForLoan } from '../api';
import { paths } from '../../../paths';

/** The loan application (spec: loanAmount, loanType, loanDuration, loanPurpose) with a live monthly payment. */
export function LoanApplyForm() {
  const queryClient = useQueryClient();
  const [loanAmount, setLoanAmount] = useState('');
  const [loanType, setLoanType] = useState<LoanType>('personal');
  const [loanDuration, setLoanDuration] = useState('36');
  const [loanPurpose, setLoanPurpose] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

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

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    if (!loanAmount.trim() || !loanPurpose.trim() || !loanDuration) {
      setResult({ tone: 'error', text: 'All fields are required' });
      return;
    }
    setBusy(true);
    try {
      const { message } = await applyForLoan({ loanAmount: loanAmount.trim(), loanType, loanDuration: months, loanPurpose: loanPurpose.trim() });
      setResult({ tone: 'success', text: message ?? LOAN_SUCCESS_MESSAGE });
      setLoanAmount('');
      setLoanPurpose('');
      await queryClient.invalidateQueries({ queryKey: ['loans'] });
    } catch (caught) {
      // A refusal the customer can fix says why; anything else gets the spec's message.
      const text = caught instanceof ApiError && caught.status >= 400 && caught.status < 500 && caught.status !== 401 ? caught.message : LOAN_FAILURE_MESSAGE;
      setResult({ tone: 'error', text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {result ? (
        <Alert tone={result.tone}>
          {result.text}
          {result.tone === 'success' ? (
            <>
              {' '}
              <Link to={paths.accountLoans} className="font-semibold underline">
                See your loans
              </Link>
            </>
          ) : null}
        </Alert>
      ) : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField label="Loan type" name="loanType" value={loanType} onChange={(event) => setLoanType(event.target.value as LoanType)}>
          {LOAN_TYPES.map((type) => (
            <option key={type} value={type}>
              {LOAN_PRODUCTS[type].label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Loan amount (USD)"
          name="loanAmount"
          inputMode="decimal"
          value={loanAmount}
          onChange={(event) => setLoanAmount(event.target.value)}
          required
          maxLength={12}
          hint={`${formatCents(product.minCents)} to ${formatCents(product.maxCents)}`}
        />
        <TextField
          label="Loan duration (months)"
          name="loanDuration"
          type="number"
          min={LOAN_DURATION_MONTHS_MIN}
          max={LOAN_DURATION_MONTHS_MAX}
          step={1}
          value={loanDuration}
          onChange={(event) => setLoanDuration(event.target.value)}
          required
          hint={`${LOAN_DURATION_MONTHS_MIN} to ${LOAN_DURATION_MONTHS_MAX} months`}
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
        name="loanPurpose"
        value={loanPurpose}
        onChange={(event) => setLoanPurpose(event.target.value)}
        required
        rows={4}
        maxLength={1000}
      />
      <p className="text-sm text-slate-700">
        Rates are indicative; the bank confirms the terms when it decides. Decisions take 1-3 business days (personal) or 5-10 (business).
      </p>
      <Button type="submit" disabled={busy}>
        {busy ? 'Submitting...' : 'Apply'}
      </Button>
    </form>
  );
}
