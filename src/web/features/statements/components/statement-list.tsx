import { useQuery } from '@tanstack/react-query';
import { FileDown } from 'lucide-react';
import type { CustomerAccountKind } from '../../../../shared/contracts/transactions';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useAction } from '../../../lib/action';
import { formatDate, formatMonth } from '../../../lib/format';
import { downloadStatement } from '../api/download-statement';
import { statementCalendarQuery } from '../api/statement-calendar';
import { statementsQuery } from '../api/list-statements';

const accountName = (account: CustomerAccountKind) => (account === 'savings' ? 'Savings' : 'Checking');

/**
 * One download at a time per list; a refusal shows in the list's own message area. After a closed
 * month's first download the list is fetched again: it now says when that statement was issued.
 */
function useStatementDownload(refresh: boolean) {
  return useAction(downloadStatement, { refresh });
}

/** The closed months' statements, newest first, each a PDF to download (made at its first download if the job has not made it yet). */
export function StatementList() {
  const list = useQuery(statementsQuery());
  const download = useStatementDownload(true);
  if (list.isPending) return <p className="text-slate-700">Loading…</p>;
  if (list.isError) return <Alert tone="error">{list.error.message}</Alert>;
  return (
    <div className="space-y-3">
      <div aria-live="polite">{download.error ? <Alert tone="error">{download.error.message}</Alert> : null}</div>
      {list.data.length === 0 ? (
        <p className="text-slate-700">No statements yet: the first one is made after the first month in which your accounts moved.</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Statements">
          {list.data.map((statement) => {
            const name = `${accountName(statement.account)} statement for ${formatMonth(statement.month)}`;
            return (
              <li key={`${statement.month}-${statement.account}`} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{formatMonth(statement.month)}</p>
                  <p className="text-sm text-slate-700">
                    {accountName(statement.account)} · {statement.issuedAt ? `Issued ${formatDate(statement.issuedAt)}` : 'Made when you first download it'}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  disabled={download.busy}
                  aria-label={`Download the ${name} (PDF)`}
                  onClick={() => void download.run({ month: statement.month, account: statement.account })}
                >
                  <FileDown aria-hidden="true" className="h-4 w-4" />
                  Download PDF
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

/** The current month so far: an interim PDF per account, not signed and not kept by the bank. */
export function InterimStatements() {
  const calendar = useQuery(statementCalendarQuery());
  const download = useStatementDownload(false);
  if (calendar.isPending) return <p className="text-slate-700">Loading…</p>;
  if (calendar.isError) return <Alert tone="error">{calendar.error.message}</Alert>;
  const month = calendar.data.currentMonth;
  return (
    <div className="space-y-3">
      <p className="text-slate-700">
        {formatMonth(month)} so far. An interim statement is not signed and cannot be verified: the signed statement of the month is made after it ends.
      </p>
      <div aria-live="polite">{download.error ? <Alert tone="error">{download.error.message}</Alert> : null}</div>
      <div className="flex flex-wrap gap-3">
        {(['checking', 'savings'] as const).map((account) => (
          <Button
            key={account}
            variant="secondary"
            disabled={download.busy}
            aria-label={`Download the interim ${accountName(account).toLowerCase()} statement for ${formatMonth(month)} (PDF)`}
            onClick={() => void download.run({ month, account })}
          >
            <FileDown aria-hidden="true" className="h-4 w-4" />
            {accountName(account)} (interim PDF)
          </Button>
        ))}
      </div>
    </div>
  );
}
