import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  BULK_PAYMENTS_MAX,
  BULK_TOO_MANY_MESSAGE,
  type BulkCodeSent,
  type BulkResult,
  type BulkRowError,
  checkBulkRows,
  ZBulkPaymentFields,
} from '../../../../shared/contracts/bulk-payments';
import { dollarsToCents } from '../../../../shared/money';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/form';
import { PageLink } from '../../../components/ui/page-link';
import { DataTable, TruncatedId } from '../../../components/ui/data-table';
import { useAction } from '../../../lib/action';
import { contractResolver, fieldError, useFormAction } from '../../../lib/form';
import { formatCents, formatNumber } from '../../../lib/format';
import { useIdempotencyKey } from '../../../lib/idempotency';
import type { ApprovalFields, PasskeyAssertion } from '../../../lib/passkey-approval';
import { PasskeyApproval } from '../../../components/ui/passkey-approval';
import { PaymentCodeStep } from '../../../components/ui/payment-code-step';
import { BulkPayeeChecks } from './bulk-payee-checks';
import type { PasskeyApprovalStep } from '../../../../shared/contracts/payment-approval';
import { paths } from '../../../paths';
import { BULK_TEMPLATE_URL, rowErrorsOf, sendBulkPayment } from '../api/send-bulk-payment';
import { parseBulkCsv, sheetRowOf } from '../parse-csv';

type Account = 'checking' | 'savings';
interface SourceValues {
  from: Account;
  csv: string;
}
type Row = Record<string, string>;

const ZSource = ZBulkPaymentFields.pick({ from: true, csv: true });
const NOTHING = 'Choose a CSV file or paste your payments';
/** Problems the alert lists above the table (every one is on its row in the table). */
const PROBLEMS_LISTED_MAX = 10;

const centsOf = (row: Row) => dollarsToCents(row.amount ?? '');
/** The rows' total, or null while any amount is not a payable sum (a partial total would mislead). */
const totalOf = (rows: Row[]) => {
  let total = 0;
  for (const row of rows) {
    const cents = centsOf(row);
    if (cents === null || cents <= 0) return null;
    total += cents;
  }
  return total;
};

/**
 * The bulk payment journey: a CSV file (or pasted rows) is read here and previewed with each row's
 * problems; "Send for approval" lets the bank check every row (unknown accounts too) and email an
 * IMS code bound to exactly these rows; the code pays them all at once, or none.
 */
export function BulkPaymentFlow() {
  const [preview, setPreview] = useState<{ from: Account; rows: Row[]; sheetRows: number[] } | null>(null);
  const [serverErrors, setServerErrors] = useState<BulkRowError[]>([]);
  const [code, setCode] = useState<BulkCodeSent | null>(null);
  const [passkey, setPasskey] = useState<PasskeyApprovalStep | null>(null);
  const [result, setResult] = useState<BulkResult | null>(null);
  const idempotency = useIdempotencyKey();
  const form = useForm<SourceValues>({
    resolver: contractResolver(ZSource, { required: { fields: ['csv'], message: NOTHING } }),
    defaultValues: { from: 'checking', csv: '' },
  });

  const readRows = useFormAction(
    form,
    async (values) => {
      const parsed = parseBulkCsv(values.csv);
      if ('error' in parsed) throw new Error(parsed.error);
      if (parsed.rows.length === 0) throw new Error('The file has no payments: add one line per payment under the header.');
      if (parsed.rows.length > BULK_PAYMENTS_MAX) throw new Error(BULK_TOO_MANY_MESSAGE);
      return { from: values.from, rows: parsed.rows, sheetRows: parsed.sheetRows };
    },
    {
      refresh: false,
      onSuccess: (next) => {
        setServerErrors([]);
        setPreview(next);
      },
    },
  );

  const call = (batch: { from: Account; rows: Row[] }, approval: ApprovalFields = {}) => {
    const request = { from: batch.from, payments: batch.rows, ...approval };
    return sendBulkPayment(request, idempotency.keyFor(request));
  };
  const options = {
    refresh: false,
    onSuccess: (answer: Awaited<ReturnType<typeof call>>) => {
      idempotency.settle();
      if (answer.kind === 'code') {
        setPasskey(null);
        setCode(answer.code);
      } else if (answer.kind === 'passkey') setPasskey(answer.step);
      else {
        setCode(null);
        setPasskey(null);
        setResult(answer.result);
      }
    },
    onError: (error: unknown) => {
      idempotency.settle(error);
      const rows = rowErrorsOf(error);
      if (rows.length > 0) {
        setServerErrors(rows);
        setCode(null);
        setPasskey(null);
      }
    },
  } as const;
  const approve = useAction((batch: { from: Account; rows: Row[] }) => call(batch), {
    ...options,
    successToast: (answer) => (answer.kind === 'code' ? 'We emailed you an IMS code' : undefined),
  });
  const confirm = useAction((paymentPin: string) => call(preview ?? { from: 'checking', rows: [] }, { paymentPin }), {
    ...options,
    refresh: true,
    successToast: (answer) => (answer.kind === 'done' ? answer.message : undefined),
  });
  const resend = useAction(() => call(preview ?? { from: 'checking', rows: [] }, { approval: 'code' }), {
    ...options,
    successToast: 'We emailed you a new IMS code',
  });
  const approveWithPasskey = useAction((passkeyAssertion: PasskeyAssertion) => call(preview ?? { from: 'checking', rows: [] }, { passkeyAssertion }), {
    ...options,
    refresh: true,
    successToast: (answer) => (answer.kind === 'done' ? answer.message : undefined),
  });
  const useCode = useAction(() => call(preview ?? { from: 'checking', rows: [] }, { approval: 'code' }), {
    ...options,
    successToast: 'We emailed you an IMS code',
  });

  // Choosing another file takes the preview (and the button pressed) away: focus goes to the form's first field.
  const [choosingAgain, setChoosingAgain] = useState(false);
  useEffect(() => {
    if (!choosingAgain || preview) return;
    setChoosingAgain(false);
    form.setFocus('from');
  }, [choosingAgain, preview, form]);
  const startOver = () => {
    setChoosingAgain(true);
    setPreview(null);
    setServerErrors([]);
    setCode(null);
    setPasskey(null);
    setResult(null);
    approve.reset();
    confirm.reset();
    form.reset({ from: form.getValues('from'), csv: '' });
  };

  if (result && preview) return <BulkResultView result={result} rows={preview.rows} sheetRows={preview.sheetRows} onAgain={startOver} />;
  if (passkey && preview) {
    return (
      <PasskeyApproval
        step={passkey}
        noun="bulk payment"
        rows={[
          ['Payments', formatNumber(preview.rows.length)],
          ['From', preview.from === 'checking' ? 'Checking' : 'Savings'],
        ]}
        notice={<BulkPayeeChecks checks={passkey.payeeChecks} rows={preview.rows} sheetRows={preview.sheetRows} />}
        approve={approveWithPasskey}
        useCode={useCode}
        onBack={() => {
          setPasskey(null);
          approveWithPasskey.reset();
          useCode.reset();
        }}
      />
    );
  }
  if (code && preview) {
    return (
      <BulkCodeStep
        code={code}
        rows={preview.rows}
        sheetRows={preview.sheetRows}
        from={preview.from}
        confirm={confirm}
        resend={resend}
        onBack={() => {
          setCode(null);
          confirm.reset();
        }}
      />
    );
  }

  if (preview) {
    const local = checkBulkRows(preview.rows);
    const errors = [...(local.ok ? [] : local.errors), ...serverErrors];
    const sendError = approve.error && serverErrors.length === 0 ? approve.error.message : null;
    const total = totalOf(preview.rows);
    return (
      <div className="space-y-4">
        <p className="text-slate-800">
          <strong>{formatNumber(preview.rows.length)}</strong> payment{preview.rows.length === 1 ? '' : 's'} from your {preview.from} account
          {total === null ? (
            <>: the total is shown once every amount is correct.</>
          ) : (
            <>
              , total <strong>{formatCents(total)}</strong>.
            </>
          )}
        </p>
        <div aria-live="polite">
          {errors.length > 0 ? (
            <Alert tone="error">
              {serverErrors.length > 0 ? approve.error?.message : 'Some rows have problems: correct them in your file and read it again.'} (
              {formatNumber(new Set(errors.map((error) => error.row)).size)} of {formatNumber(preview.rows.length)} rows)
              <ul className="mt-2 list-disc pl-5">
                {errors.slice(0, PROBLEMS_LISTED_MAX).map((error) => (
                  <li key={`${error.row}-${error.field}`}>
                    Row {sheetRowOf(preview.sheetRows, error.row)}: {error.message}
                  </li>
                ))}
                {errors.length > PROBLEMS_LISTED_MAX ? <li>and {formatNumber(errors.length - PROBLEMS_LISTED_MAX)} more, shown in the table</li> : null}
              </ul>
            </Alert>
          ) : null}
          {sendError ? <Alert tone="error">{sendError}</Alert> : null}
        </div>
        <PreviewTable rows={preview.rows} sheetRows={preview.sheetRows} errors={errors} />
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={startOver} disabled={approve.busy}>
            Choose another file
          </Button>
          <Button onClick={() => void approve.run(preview)} disabled={approve.busy || errors.length > 0}>
            {approve.busy ? 'Checking…' : 'Send for approval'}
          </Button>
        </div>
      </div>
    );
  }

  const { errors } = form.formState;
  return (
    <form onSubmit={readRows.submit} noValidate aria-label="Bulk payment file" className="space-y-5">
      {/* Empty, the live region takes no room: space-y's margin under it collapsed through the empty
          box and the form into the card's top (20 px more than every other card). It stays rendered,
          not hidden, so that a screen reader announces the error when it appears. */}
      <div aria-live="polite" className="empty:mb-0">
        {readRows.error ? <Alert tone="error">{readRows.error.message}</Alert> : null}
      </div>
      <SelectField label="Pay from" {...fieldError(errors.from)} {...form.register('from')}>
        <option value="checking">Checking</option>
        <option value="savings">Savings</option>
      </SelectField>
      <TextField
        label="CSV file"
        type="file"
        accept=".csv,text/csv"
        hint={
          <>
            Up to {formatNumber(BULK_PAYMENTS_MAX)} payments to accounts at this bank, one per line under the header accountNumber, amount, name, description.{' '}
            <a href={BULK_TEMPLATE_URL} download className="font-semibold text-brand-800 underline">
              Download the template
            </a>
            .
          </>
        }
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void file.text().then((text) => form.setValue('csv', text, { shouldDirty: true }));
        }}
      />
      <TextAreaField
        label="Or paste your payments (CSV, with the header line)"
        rows={6}
        spellCheck={false}
        className="font-mono text-sm"
        placeholder={'accountNumber,amount,name,description\n1234567897,1250.00,Sam Taylor,Salary November'}
        {...fieldError(errors.csv)}
        {...form.register('csv')}
      />
      <Button type="submit" disabled={readRows.busy}>
        Preview payments
      </Button>
    </form>
  );
}

/** A row's number: "Row 2" on a phone's card (the alert's words), the number alone under the table's "Row" heading. */
function RowNumber({ row }: { row: number }) {
  return (
    <span className="max-md:text-sm max-md:font-normal max-md:text-slate-700">
      <span aria-hidden="true" className="md:hidden">
        Row{' '}
      </span>
      {row}
    </span>
  );
}

/**
 * The rows read from the file, each with its problems in its own row (a screen reader hears them
 * under the "Problems" heading, with the row): a table from 768 px, on a phone a card per row with
 * the recipient and the amount on its first line (DataTable), so nothing is off to the side.
 */
function PreviewTable({ rows, sheetRows, errors }: { rows: Row[]; sheetRows: number[]; errors: BulkRowError[] }) {
  const byRow = new Map<number, BulkRowError[]>();
  for (const error of errors) byRow.set(error.row, [...(byRow.get(error.row) ?? []), error]);
  const problemsOf = (index: number) => byRow.get(index + 1) ?? [];
  return (
    <DataTable
      caption="Payments to make, with the problems of each row"
      rows={rows}
      rowKey={(_row, index) => String(index)}
      rowProps={(_row, index) => (problemsOf(index).length > 0 ? { className: 'bg-red-50! max-md:border-red-300!' } : {})}
      columns={[
        { header: 'Row', kind: 'title', rowHeader: true, cell: (_row, index) => <RowNumber row={sheetRowOf(sheetRows, index + 1)} /> },
        { header: 'Account number', label: 'Account', cell: (row) => <span className="font-mono">{row.accountNumber}</span> },
        { header: 'Name', kind: 'title', cell: (row) => row.name },
        { header: 'Description', cell: (row) => row.description },
        {
          header: 'Amount',
          kind: 'figure',
          className: 'md:whitespace-nowrap',
          cell: (row) => {
            const cents = centsOf(row);
            return cents !== null && cents > 0 ? formatCents(cents) : row.amount;
          },
        },
        {
          header: 'Problems',
          kind: 'note',
          cell: (_row, index) => {
            const problems = problemsOf(index);
            return problems.length > 0 ? (
              <ul className="space-y-1 font-medium text-red-800 max-md:mt-2">
                {problems.map((problem) => (
                  <li key={problem.field}>{problem.message}</li>
                ))}
              </ul>
            ) : (
              <span className="sr-only">None</span>
            );
          },
        },
      ]}
    />
  );
}

function BulkCodeStep({
  code,
  rows: payments,
  sheetRows,
  from,
  confirm,
  resend,
  onBack,
}: {
  code: BulkCodeSent;
  rows: Row[];
  sheetRows: number[];
  from: Account;
  confirm: ReturnType<typeof useAction<string, unknown>>;
  resend: ReturnType<typeof useAction<void, unknown>>;
  onBack: () => void;
}) {
  const count = payments.length;
  return (
    <PaymentCodeStep
      label="Approve bulk payment"
      heading="Approve this bulk payment"
      rows={[
        ['Payments', formatNumber(count)],
        ['Total', formatCents(Math.round(code.amount * 100))],
        ['From', from === 'checking' ? 'Checking' : 'Savings'],
      ]}
      notice={<BulkPayeeChecks checks={code.payeeChecks} rows={payments} sheetRows={sheetRows} />}
      code={code}
      approves="works only for exactly these payments"
      submitLabel={`Send ${formatNumber(count)} payment${count === 1 ? '' : 's'}`}
      busyLabel="Sending…"
      confirm={confirm}
      resend={resend}
      onBack={onBack}
    />
  );
}

function BulkResultView({ result, rows, sheetRows, onAgain }: { result: BulkResult; rows: Row[]; sheetRows: number[]; onAgain: () => void }) {
  return (
    <div className="space-y-4">
      <Alert tone="success">
        Paid {formatNumber(result.count)} payments, total {formatCents(Math.round(result.total * 100))}.
      </Alert>
      <p className="text-sm text-slate-700">
        Batch reference <span className="font-mono break-all">{result.batchId}</span>. Each payment is a line in your{' '}
        <PageLink to={paths.accountTransactions} className="font-semibold text-brand-800 underline">
          transactions
        </PageLink>
        .
      </p>
      <DataTable
        caption="Payments made, with their transaction IDs"
        rows={result.results}
        rowKey={(line) => line.entryId}
        columns={[
          { header: 'Row', kind: 'title', rowHeader: true, cell: (line) => <RowNumber row={sheetRowOf(sheetRows, line.row)} /> },
          { header: 'Name', kind: 'title', cell: (line) => rows[line.row - 1]?.name },
          {
            header: 'Amount',
            kind: 'figure',
            className: 'md:whitespace-nowrap',
            cell: (line) => {
              const row = rows[line.row - 1];
              return formatCents(row ? (centsOf(row) ?? 0) : 0);
            },
          },
          // The payer's line, by the Transaction ID the history, statements and exports give it. The
          // id is cut at its start where it does not fit (its end tells the rows apart); its title and
          // the text (select, copy) hold it whole.
          { header: 'Transaction ID', cell: (line) => <TruncatedId value={line.transactionId ?? line.entryId} /> },
        ]}
      />
      <Button onClick={onAgain}>Make another bulk payment</Button>
    </div>
  );
}
