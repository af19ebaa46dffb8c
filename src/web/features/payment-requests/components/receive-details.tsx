import { bankDetails } from '../../../../shared/bank-details';
import { Button } from '../../../components/ui/button';
import { QrCode } from '../../../components/ui/qr-code';
import { useCopied } from '../../../lib/clipboard';
import { useCurrentUser } from '../../../lib/current-user';
import { BANK_NAME } from '../../../lib/settings';
import { paths } from '../../../paths';

/**
 * The link a payer at this bank scans: the bank's transfer page with this customer's name and
 * account number filled in (the transfer form reads `to` and `accountNumber`). The payer still
 * signs in, checks the name and approves with their own IMS code.
 */
export function payLinkOf(origin: string, name: string, accountNumber: string): string {
  return `${origin}${paths.accountTransfer}?${new URLSearchParams({ to: name, accountNumber }).toString()}`;
}

/** What a payer needs, each with a Copy button, and a QR code for payers at this bank. */
export function ReceiveDetails() {
  const user = useCurrentUser();
  const name = `${user.firstName} ${user.lastName}`.trim();
  const { copied, copy } = useCopied<string>();
  const rows: Array<{ label: string; value: string; testId: string; digits?: boolean }> = [
    { label: 'Name', value: name, testId: 'receive-name' },
    { label: 'Account number', value: user.account.number, testId: 'receive-account-number', digits: true },
    { label: 'Routing number', value: bankDetails.routingNumber, testId: 'receive-routing-number', digits: true },
    { label: 'Bank', value: BANK_NAME, testId: 'receive-bank-name' },
  ];

  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <div className="grid gap-6 md:grid-cols-[1fr_auto]">
      <div>
        <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {rows.map((row) => (
            <div key={row.label} className="px-4 py-3">
              <dt className="text-sm text-slate-700">{row.label}</dt>
              <dd className="flex flex-wrap items-center justify-between gap-2">
                <span
                  data-testid={row.testId}
                  className={`min-w-0 text-base font-semibold break-all text-slate-900 ${row.digits ? 'font-mono tracking-wide' : ''}`}
                >
                  {row.value}
                </span>
                <Button variant="secondary" onClick={() => void copy(row.label, row.value)}>
                  {copied === row.label ? 'Copied!' : 'Copy'}
                  <span className="sr-only"> {row.label.toLowerCase()}</span>
                </Button>
              </dd>
            </div>
          ))}
        </dl>
        <p className="sr-only" role="status">
          {copied ? `${copied} copied` : ''}
        </p>
        <p className="mt-3 text-sm text-slate-700">
          Payers at another US bank use the routing number and account number above. Payers at {BANK_NAME} need only your account number, or the QR code.
        </p>
      </div>
      <figure className="flex flex-col items-center gap-2">
        <QrCode value={payLinkOf(origin, name, user.account.number)} label={`QR code: pay ${name} at ${BANK_NAME}`} />
        <figcaption className="max-w-48 text-center text-sm text-slate-700">Payers at {BANK_NAME} scan this to open a transfer to you.</figcaption>
      </figure>
    </div>
  );
}
