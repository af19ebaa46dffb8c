import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { COPIED_MS } from '../../../../shared/contracts/deposits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api';
import { cryptoOptionsQuery } from '../api';

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Older browsers or a denied permission: the selection-based copy still works.
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

function QrCode({ value, label }: { value: string; label: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(value, { margin: 1, width: 192, errorCorrectionLevel: 'M' })
      .then((data) => live && setUrl(data))
      .catch(() => live && setUrl(null));
    return () => {
      live = false;
    };
  }, [value]);
  if (!url) return null;
  return <img src={url} alt={label} width={192} height={192} className="rounded-md border border-slate-200" />;
}

/** Currency list on the left (first selected), the chosen address with Copy and a QR code on the right. */
export function CryptoDeposit() {
  const { data, isPending, error } = useQuery(cryptoOptionsQuery());
  const [selected, setSelected] = useState(0);
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  if (isPending) return <p role="status">Loading...</p>;
  if (error) return <Alert tone="error">{errorMessage(error)}</Alert>;
  const option = data.options[selected] ?? data.options[0];
  if (!option) return <p className="text-slate-700">No deposit options are configured.</p>;

  async function onCopy(address: string) {
    await copyText(address);
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }

  return (
    <div className="space-y-4">
      {data.demo ? <Alert tone="warning">These are demonstration addresses from the networks&apos; documentation. Do not send real funds.</Alert> : null}
      <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
        <div role="group" aria-label="Currency" className="flex flex-col gap-2">
          {data.options.map((item, index) => (
            <button
              key={`${item.symbol}-${item.network}`}
              type="button"
              aria-pressed={index === selected}
              onClick={() => {
                setSelected(index);
                setCopied(false);
              }}
              className={`flex items-center gap-3 rounded-lg border px-4 py-3 text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ${index === selected ? 'border-brand-700 bg-brand-50' : 'border-slate-200 bg-white hover:bg-slate-50'}`}
            >
              {item.iconUrl ? <img src={item.iconUrl} alt="" width={28} height={28} /> : null}
              <span>
                <span className="block font-semibold text-slate-900">{item.name}</span>
                <span className="block text-sm text-slate-700">{item.symbol}</span>
              </span>
            </button>
          ))}
        </div>
        <section aria-labelledby="deposit-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="deposit-heading" className="text-xl font-semibold text-slate-900">
            Deposit {option.name}
          </h2>
          <dl className="mt-4 space-y-3">
            <div>
              <dt className="text-sm text-slate-700">Network</dt>
              <dd className="font-medium text-slate-900">{option.network}</dd>
            </div>
            <div>
              <dt className="text-sm text-slate-700">Deposit address</dt>
              <dd className="mt-1 flex flex-wrap items-center gap-3">
                <code data-testid="deposit-address" className="rounded bg-slate-100 px-2 py-1 font-mono text-sm break-all text-slate-900">
                  {option.address}
                </code>
                <Button variant="secondary" onClick={() => void onCopy(option.address)}>
                  {copied ? 'Copied!' : 'Copy'}
                  {copied ? null : <span className="sr-only"> the {option.symbol} address</span>}
                </Button>
                <span className="sr-only" role="status">
                  {copied ? 'Address copied' : ''}
                </span>
              </dd>
            </div>
          </dl>
          <div className="mt-5 flex flex-wrap items-start gap-6">
            <QrCode value={option.address} label={`QR code of the ${option.symbol} deposit address`} />
            <ul className="max-w-md list-disc space-y-1 pl-5 text-sm text-slate-800">
              <li>Send only {option.symbol} to this address. Other assets sent here will be lost.</li>
              <li>Make sure you use this network: {option.network}.</li>
              <li>Deposits are credited after network confirmations, which may take some time.</li>
            </ul>
          </div>
        </section>
      </div>
    </div>
  );
}
