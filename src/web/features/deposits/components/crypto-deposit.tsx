import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { QrCode } from '../../../components/ui/qr-code';
import { errorMessage } from '../../../lib/api';
import { useCopied } from '../../../lib/clipboard';
import { cryptoOptionsQuery } from '../api';

/** Currency list on the left (first selected), the chosen address with Copy and a QR code on the right. */
export function CryptoDeposit() {
  const { data, isPending, error } = useQuery(cryptoOptionsQuery());
  const [selected, setSelected] = useState(0);
  const { copied, copy, reset } = useCopied<'address'>();

  if (isPending) return <p role="status">Loading...</p>;
  if (error) return <Alert tone="error">{errorMessage(error)}</Alert>;
  const option = data.options[selected] ?? data.options[0];
  if (!option) return <p className="text-slate-700">No deposit options are configured.</p>;

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
                reset();
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
                <Button variant="secondary" onClick={() => void copy('address', option.address)}>
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
