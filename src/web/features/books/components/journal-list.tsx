import { Link } from 'react-router';
import type { JournalEntryDto } from '../../../../shared/contracts/journal';
import { formatCents, formatDate, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import { DataTable } from '../../../components/ui/data-table';
import { accountLine, entryKindLabel } from '../format';

/** The accounts an entry touched, in one short line. */
const touched = (entry: JournalEntryDto) =>
  entry.postings.map((posting) => accountLine(posting.accountKind, posting.accountName, posting.accountNumber, posting.ownerName)).join(', ');

function Status({ entry }: { entry: JournalEntryDto }) {
  if (entry.reversedBy) return <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900">Reversed</span>;
  if (entry.reversalOf) return <span className="rounded bg-slate-200 px-1.5 py-0.5 text-xs font-semibold text-slate-800">Reversal</span>;
  return null;
}

function EntryLink({ entry }: { entry: JournalEntryDto }) {
  return (
    <Link to={paths.adminJournalEntry(entry.id)} className="font-semibold text-brand-800 hover:underline">
      Entry {formatNumber(entry.seq)}
      <span className="sr-only">: {entry.description}</span>
    </Link>
  );
}

/**
 * The journal's entries, newest first, in the back office's one list (DataTable): a table from
 * 768 px, one card per entry below it, from one DOM (a phone reads each entry whole, its link in
 * view, with no sideways scrolling).
 */
export function JournalList({ entries }: { entries: JournalEntryDto[] }) {
  return (
    <DataTable
      caption="Journal entries, newest first"
      rows={entries}
      rowKey={(entry) => entry.id}
      rowProps={() => ({ 'data-testid': 'journal-row' })}
      columns={[
        { header: 'Entry', kind: 'title', className: 'md:whitespace-nowrap', cell: (entry) => <EntryLink entry={entry} /> },
        {
          header: 'Booked',
          className: 'md:whitespace-nowrap',
          cell: (entry) => (
            <>
              <time dateTime={entry.bookedAt}>{formatDate(entry.bookedAt, 'dateTime')}</time>
              <span className="block text-xs text-slate-700">Value {formatDate(entry.valueDate)}</span>
            </>
          ),
        },
        { header: 'Kind', cell: (entry) => entryKindLabel(entry.kind) },
        {
          header: 'Description',
          cell: (entry) => (
            <>
              <span className="wrap-anywhere">{entry.description}</span> <Status entry={entry} />
            </>
          ),
        },
        { header: 'Accounts', cell: (entry) => <span className="text-slate-800">{touched(entry)}</span> },
        { header: 'Amount', align: 'right', className: 'tabular-nums md:whitespace-nowrap', cell: (entry) => formatCents(entry.amountCents) },
      ]}
    />
  );
}
