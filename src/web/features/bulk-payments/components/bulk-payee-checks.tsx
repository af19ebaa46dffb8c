import type { RowPayeeCheck } from '../../../../shared/contracts/payment-approval';
import { Alert } from '../../../components/ui/alert';
import { formatNumber } from '../../../lib/format';
import { sheetRowOf } from '../parse-csv';

/** Rows named on the step; the rest are counted. */
const CHECKS_LISTED_MAX = 10;

/**
 * Confirmation of payee for a bulk payment's rows (ADR 029), on its approval step: every name
 * matches, or the rows whose name is not the account holder's. The payer decides: going Back to
 * correct the file starts the approval again.
 */
export function BulkPayeeChecks({
  checks,
  rows,
  sheetRows,
}: {
  checks: RowPayeeCheck[] | undefined;
  rows: Array<Record<string, string>>;
  /** The spreadsheet row of each payment (sheetRowOf). */
  sheetRows: number[];
}) {
  if (!checks) return null;
  if (checks.length === 0) return <Alert tone="success">Every name matches its account holder&apos;s name.</Alert>;
  const mismatches = checks.some((check) => check.result === 'no_match');
  return (
    <Alert tone={mismatches ? 'error' : 'warning'}>
      <p className="font-semibold">
        {formatNumber(checks.length)} of {formatNumber(rows.length)} names are not the account holder&apos;s name.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {checks.slice(0, CHECKS_LISTED_MAX).map((check) => (
          <li key={check.row}>
            Row {sheetRowOf(sheetRows, check.row)} ({rows[check.row - 1]?.name}):{' '}
            {check.result === 'close_match' ? 'close to the account holder’s name, but not the same.' : 'does not match this account.'}
          </li>
        ))}
        {checks.length > CHECKS_LISTED_MAX ? <li>and {formatNumber(checks.length - CHECKS_LISTED_MAX)} more</li> : null}
      </ul>
      <p className="mt-2">
        If a payment is not for who you meant, go Back, correct your file and read it again. If you pay the wrong account, we may not be able to get the money
        back.
      </p>
    </Alert>
  );
}
