import { useState, type FormEvent } from 'react';
import type { VerifyResult } from '../../../../shared/contracts/statements';
import { UPLOAD_BYTES_MAX } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/form';
import { ApiError, errorMessage } from '../../../lib/api';
import { formatDate, formatMonth } from '../../../lib/format';
import { verifyStatement } from '../api/verify-statement';

const SIZE_MB = UPLOAD_BYTES_MAX / 1024 / 1024;

/**
 * The public verifier: one file, one answer. Plain React state (no form library, no query cache)
 * keeps the page's JavaScript small; the server checks everything again anyway.
 */
export function VerifyStatementForm({ bankName }: { bankName: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  // What went wrong; `file` when it is about the chosen file (the field then says it too).
  const [problem, setProblem] = useState<{ message: string; file: boolean } | null>(null);
  const [result, setResult] = useState<{ name: string; answer: VerifyResult } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    const fileProblem = (message: string) => setProblem({ message, file: true });
    if (!file) return fileProblem('Please choose the statement PDF to check.');
    if (file.size === 0) return fileProblem('That file is empty. Please choose the statement PDF exactly as it was downloaded.');
    if (file.size > UPLOAD_BYTES_MAX) return fileProblem(`That file is larger than ${SIZE_MB} MB: no statement of ours is.`);
    // Every PDF starts with "%PDF-": anything else is the wrong file, not an edited statement.
    if ((await file.slice(0, 5).text()) !== '%PDF-')
      return fileProblem(`${file.name} is not a PDF. Please choose the statement PDF exactly as it was downloaded.`);
    setProblem(null);
    setBusy(true);
    try {
      setResult({ name: file.name, answer: await verifyStatement(file) });
    } catch (error) {
      // The server names the field when the file is at fault (missing, too large); not when it is busy or unreachable.
      setProblem({ message: errorMessage(error), file: error instanceof ApiError && (!!error.fields?.file || error.status === 413) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6">
      <form onSubmit={submit} noValidate aria-label="Check a statement" className="space-y-4">
        {/* A field like every form's (components/ui/form.tsx): the problem is shown under it and is
            its description, and it is marked invalid; the alert below announces the problem once. */}
        <TextField
          label="Statement PDF"
          type="file"
          accept="application/pdf,.pdf"
          error={problem?.file ? problem.message : undefined}
          hint={`The file exactly as the customer downloaded it from ${bankName} (at most ${SIZE_MB} MB). It is only hashed, not kept.`}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setProblem(null);
            setResult(null);
          }}
        />
        <Button type="submit" disabled={busy} className="px-6 py-3 text-base">
          {busy ? 'Checking…' : 'Check statement'}
        </Button>
      </form>
      <div aria-live="polite">
        {problem ? <Alert tone="error">{problem.message}</Alert> : null}
        {result ? <VerifyAnswer name={result.name} answer={result.answer} bankName={bankName} /> : null}
      </div>
    </div>
  );
}

function VerifyAnswer({ name, answer, bankName }: { name: string; answer: VerifyResult; bankName: string }) {
  if (!answer.genuine && answer.interim) {
    return (
      <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-5 text-amber-950">
        <h2 className="text-lg font-bold">An interim statement: it cannot be verified</h2>
        <p className="mt-2">
          {name} calls itself an interim statement. {bankName} does not sign or keep interim statements (they cover a month that has not ended yet), so nobody
          can check whether this one was changed. Ask the customer for the statement of a month that has ended: it is issued on the 1st of the next month, and
          this page can verify it.
        </p>
      </div>
    );
  }
  if (!answer.genuine) {
    return (
      <div role="status" className="rounded-lg border border-red-300 bg-red-50 p-5 text-red-900">
        <h2 className="text-lg font-bold">Not a genuine statement</h2>
        <p className="mt-2">
          {name} is not a statement issued by {bankName}, byte for byte. It may have been edited (even one digit), re-saved by another program, or made
          elsewhere. Ask the customer to download it again from their online banking and send you that file.
        </p>
      </div>
    );
  }
  // What a person reads, then the values a machine checks (shown as code).
  const rows: Array<[string, string, boolean]> = [
    ['Customer', answer.customerName, false],
    ['Account', `${answer.account === 'savings' ? 'Savings' : 'Checking'} ${answer.accountNumberMasked}`, false],
    ['Period', formatMonth(answer.period), false],
    ['Issued', formatDate(answer.issuedAt, 'dateTime'), false],
    ['Statement ID', answer.statementId, true],
    ['Signed with key', answer.keyId, true],
    ['SHA-256 of the file', answer.sha256, true],
    ['Ledger chain hash', answer.ledgerChainHash, true],
    ['Signature', answer.signature, true],
  ];
  return (
    <div role="status" className="rounded-lg border border-green-300 bg-green-50 p-5 text-green-950">
      <h2 className="text-lg font-bold">Genuine statement</h2>
      <p className="mt-2">
        {name} is a statement {bankName} issued, unchanged. What it says about this customer and period is what the bank recorded.
      </p>
      <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        {rows.map(([term, value, code]) => (
          <div key={term} className="contents">
            <dt className="font-semibold">{term}</dt>
            <dd className={code ? 'break-all font-mono text-sm' : ''}>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
