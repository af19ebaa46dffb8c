import type { AnchorDto, ChainHeadDto } from '../../../../shared/contracts/anchors';
import { formatDate, formatNumber } from '../../../lib/format';

function Head({ label, head }: { label: string; head: ChainHeadDto }) {
  return (
    <div className="min-w-0">
      <dt className="font-medium text-slate-800">{label}</dt>
      <dd className="text-slate-900">
        position <span className="tabular-nums">{formatNumber(head.position)}</span>
        <code className="mt-0.5 block break-all font-mono text-xs text-slate-700">{head.hash}</code>
      </dd>
    </div>
  );
}

/** One card per anchor (it reads the same at 375 px and at 1280 px): when, by whom, both heads, the key. */
export function AnchorList({ anchors }: { anchors: AnchorDto[] }) {
  return (
    <ol className="space-y-3" aria-label="Anchors, newest first">
      {anchors.map((anchor) => (
        <li key={anchor.seq} className="rounded-lg border border-slate-200 p-4" data-testid="anchor">
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <h3 className="font-semibold text-slate-900">Anchor {formatNumber(anchor.seq)}</h3>
            <p className="text-sm text-slate-700">
              <time dateTime={anchor.at}>{formatDate(anchor.at, 'dateTimeSeconds')}</time>
              {' · '}
              {anchor.requestedBy ? `Anchor now, by ${anchor.requestedBy}` : `Daily (${anchor.dailyDate ?? 'job'})`}
            </p>
          </div>
          <dl className="mt-2 grid gap-3 text-sm sm:grid-cols-2">
            <Head label="Ledger chain" head={anchor.ledgerHead} />
            <Head label="Audit chain" head={anchor.auditHead} />
            <div className="sm:col-span-2">
              <dt className="font-medium text-slate-800">Signed with key</dt>
              <dd>
                <code className="font-mono text-xs text-slate-900">{anchor.keyId}</code>
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ol>
  );
}
