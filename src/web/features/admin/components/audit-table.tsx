import { Link } from 'react-router';
import type { AuditEntryDto } from '../../../../shared/contracts/admin';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../paths';

function Change({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-slate-600">—</span>;
  if (typeof value !== 'object') return <code className="break-all text-xs">{String(value)}</code>;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <span className="text-slate-600">—</span>;
  return (
    <dl className="space-y-0.5 text-xs">
      {entries.map(([key, item]) => (
        <div key={key} className="flex flex-wrap gap-1">
          <dt className="font-semibold text-slate-800">{key}:</dt>
          <dd className="break-all text-slate-900">{typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** In place of a value whose personal data was erased when its customer was closed (the record itself stays). */
function Erased() {
  return (
    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs italic text-slate-700" title="Personal data erased when the customer was closed">
      erased
    </span>
  );
}

/** Who did what, when, to whom, with the values before and after. */
export function AuditTable({ items }: { items: AuditEntryDto[] }) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Audit log, newest first</caption>
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            {['When', 'Staff member', 'Action', 'Customer', 'Before', 'After', 'Reason'].map((heading) => (
              <th key={heading} scope="col" className="px-3 py-3 font-semibold text-slate-900">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((entry) => (
            <tr key={entry.id} className="border-b border-slate-100 align-top last:border-0">
              <td className="whitespace-nowrap px-3 py-2 text-slate-800">
                <time dateTime={entry.at}>{formatDate(entry.at, 'dateTimeSeconds')}</time>
              </td>
              <td className="px-3 py-2 text-slate-900">{entry.actorEmail ?? 'System'}</td>
              <td className="px-3 py-2">
                <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-900">{entry.action}</code>
              </td>
              <td className="px-3 py-2">
                {entry.targetUserId ? (
                  entry.targetName ? (
                    <Link to={paths.adminUser(entry.targetUserId)} className="font-medium text-brand-800 hover:underline">
                      {entry.targetName}
                    </Link>
                  ) : (
                    <span className="text-slate-700">Deleted user</span>
                  )
                ) : (
                  <span className="text-slate-600">—</span>
                )}
              </td>
              <td className="px-3 py-2">{entry.erased ? <Erased /> : <Change value={entry.before} />}</td>
              <td className="px-3 py-2">{entry.erased ? <Erased /> : <Change value={entry.after} />}</td>
              <td className="px-3 py-2 text-slate-800">{entry.erased ? <Erased /> : (entry.reason ?? '—')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
