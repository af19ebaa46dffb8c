import type { JournalEntryDetailDto } from '../../../../shared/contracts/journal';
import { formatDate } from '../../../lib/format';
import { EmailAddress } from '../../../components/ui/email-address';

/** The audit records about an entry, oldest first: who posted, reversed or re-described it, and why. */
export function EntryAudit({ records }: { records: JournalEntryDetailDto['audit'] }) {
  if (records.length === 0) return <p className="text-sm text-slate-700">No staff action is recorded about this entry.</p>;
  return (
    <ol className="space-y-3" aria-label="Audit records about this entry">
      {records.map((record) => (
        <li key={record.id} className="rounded-lg border border-slate-200 p-3 text-sm" data-testid="entry-audit">
          <p className="flex flex-wrap justify-between gap-x-3 gap-y-1">
            <code className="font-mono text-slate-900">{record.action}</code>
            <time dateTime={record.at} className="text-slate-700">
              {formatDate(record.at, 'dateTimeSeconds')}
            </time>
          </p>
          <p className="mt-1 break-words text-slate-800">
            {record.actorEmail ? <EmailAddress value={record.actorEmail} /> : 'A staff member (erased)'}
            {record.reason ? ` · ${record.reason}` : ''}
          </p>
        </li>
      ))}
    </ol>
  );
}
