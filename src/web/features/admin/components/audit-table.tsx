import { Link } from 'react-router';
import type { AuditEntryDto } from '../../../../shared/contracts/admin';
import { formatDate } from '../../../lib/format';
import { DataTable, type DataColumn } from '../../../components/ui/data-table';
import { paths } from '../../../paths';
import { EmailAddress } from '../../../components/ui/email-address';

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
          <dd className="break-all text-slate-900">
            {Array.isArray(item) && item.every((part) => typeof part !== 'object' || part === null) ? (
              item.map(String).join(', ')
            ) : typeof item === 'object' && item !== null ? (
              <div className="border-l-2 border-slate-200 pl-2">
                <Change value={item} />
              </div>
            ) : (
              String(item)
            )}
          </dd>
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

const columns: Array<DataColumn<AuditEntryDto>> = [
  {
    header: 'When',
    className: 'md:whitespace-nowrap',
    cell: (entry) => <time dateTime={entry.at}>{formatDate(entry.at, 'dateTimeSeconds')}</time>,
  },
  { header: 'Staff member', cell: (entry) => (entry.actorEmail ? <EmailAddress value={entry.actorEmail} /> : 'System') },
  { header: 'Action', cell: (entry) => <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-900">{entry.action}</code> },
  {
    header: 'Customer',
    cell: (entry) =>
      entry.targetUserId ? (
        entry.targetName ? (
          <Link to={paths.adminUser(entry.targetUserId)} className="font-medium text-brand-800 hover:underline">
            {entry.targetName}
          </Link>
        ) : (
          <span className="text-slate-700">Deleted user</span>
        )
      ) : (
        <span className="text-slate-600">—</span>
      ),
  },
  { header: 'Before', cell: (entry) => (entry.erased ? <Erased /> : <Change value={entry.before} />) },
  { header: 'After', cell: (entry) => (entry.erased ? <Erased /> : <Change value={entry.after} />) },
  { header: 'Reason', cell: (entry) => (entry.erased ? <Erased /> : (entry.reason ?? '—')) },
];

/** Who did what, when, to whom, with the values before and after. */
export function AuditTable({ items }: { items: AuditEntryDto[] }) {
  return <DataTable caption="Audit log, newest first" columns={columns} rows={items} rowKey={(entry) => String(entry.id)} />;
}
