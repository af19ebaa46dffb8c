import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { bankDetails } from '../../../../shared/bank-details';
import { Button } from '../../../components/ui/button';
import { useCurrentUser } from '../../../lib/current-user';
import { BANK_NAME } from '../../../lib/settings';
import { paths } from '../../../paths';

const COPIED_MS = 2000;

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // A denied permission or an older browser: the selection-based copy still works.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/**
 * The link a payer at this bank scans: the bank's transfer page with this customer's name and
 * account number filled in (the transfer form reads `to` and `accountNumber`). The payer still
 * signs in, checks the name and approves with their own IMS code.
 */
export function payLinkOf(origin: string, name: string, accountNumber: string): string {
  return `${origin}${paths.accountTransfer}?${new URLSearchParams({ to: name, accountNumber }).toString()}`;
}

function QrCode({ value, label }: { value: string; label: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(value, { margin: 1, width: 200, errorCorrectionLevel: 'M' })
      .then((data) => live && setUrl(data))
      .catch(() => live && setUrl(null));
    return () => {
      live = false;
    };
  }, [value]);
  if (!url) return <div className="h-[200px] w-[200px] rounded-md border border-slate-200 bg-slate-50" aria-hidden="true" />;
  return <img src={url} alt={label} width={200} height={200} data-testid="receive-qr" className="rounded-md border border-slate-200" />;
}

/** What a payer needs, each with a Copy button, and a QR code for payers at this bank. */
export function ReceiveDetails() {
  const user = useCurrentUser();
  const name = `${user.firstName} ${user.lastName}`.trim();
  const [copied, setCopied] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const rows: Array<{ label: string; value: string; testId: string; digits?: boolean }> = [
    { label: 'Name', value: name, testId: 'receive-name' },
    { label: 'Account number', value: user.account.number, testId: 'receive-account-number', digits: true },
    { label: 'Routing number', value: bankDetails.routingNumber, testId: 'receive-routing-number', digits: true },
    { label: 'Bank', value: BANK_NAME, testId: 'receive-bank-name' },
  ];

  async function onCopy(label: string, value: string) {
    await copyText(value);
    setCopied(label);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(null), COPIED_MS);
  }

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
                <Button variant="secondary" onClick={() => void onCopy(row.label, row.value)}>
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
        <figcaption className="max-w-[200px] text-center text-sm text-slate-700">Payers at {BANK_NAME} scan this to open a transfer to you.</figcaption>
      </figure>
    </div>
  );
}
