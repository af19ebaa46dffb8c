import { Link } from 'react-router';
import type { JournalEntryDto } from '../../../../shared/contracts/journal';
import { formatCents, formatDate, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
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
 * The journal's entries, newest first: a table from 768 px, one card per entry below it (a phone
 * reads each entry whole, its link in view, with no sideways scrolling). Only one of the two is
 * displayed at a time, so assistive technology meets each entry once.
 */
export function JournalList({ entries }: { entries: JournalEntryDto[] }) {
  return (
    <>
      <ol className="space-y-3 md:hidden" aria-label="Journal entries, newest first">
        {entries.map((entry) => (
          <li key={entry.id} className="rounded-lg border border-slate-200 p-4" data-testid="journal-entry">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <EntryLink entry={entry} />
              <span className="font-semibold tabular-nums text-slate-900">{formatCents(entry.amountCents)}</span>
            </div>
            <p className="mt-1 text-slate-900">
              {entry.description} <Status entry={entry} />
            </p>
            <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-700">Kind</dt>
              <dd className="text-slate-900">{entryKindLabel(entry.kind)}</dd>
              <dt className="text-slate-700">Booked</dt>
              <dd className="text-slate-900">
                <time dateTime={entry.bookedAt}>{formatDate(entry.bookedAt, 'dateTime')}</time>
              </dd>
              <dt className="text-slate-700">Value date</dt>
              <dd className="text-slate-900">{formatDate(entry.valueDate)}</dd>
              <dt className="text-slate-700">Accounts</dt>
              <dd className="min-w-0 break-words text-slate-900">{touched(entry)}</dd>
            </dl>
          </li>
        ))}
      </ol>
      <div className="hidden md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Journal entries, newest first</caption>
          <thead className="border-b border-slate-300 text-slate-800">
            <tr>
              <th scope="col" className="py-2 pr-3">
                Entry
              </th>
              <th scope="col" className="py-2 pr-3">
                Booked
              </th>
              <th scope="col" className="py-2 pr-3">
                Kind
              </th>
              <th scope="col" className="py-2 pr-3">
                Description
              </th>
              <th scope="col" className="py-2 pr-3">
                Accounts
              </th>
              <th scope="col" className="py-2 text-right">
                Amount
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {entries.map((entry) => (
              <tr key={entry.id} className="align-top" data-testid="journal-row">
                <td className="py-2 pr-3 whitespace-nowrap">
                  <EntryLink entry={entry} />
                </td>
                <td className="py-2 pr-3 whitespace-nowrap">
                  <time dateTime={entry.bookedAt}>{formatDate(entry.bookedAt, 'dateTime')}</time>
                  <span className="block text-xs text-slate-700">Value {formatDate(entry.valueDate)}</span>
                </td>
                <td className="py-2 pr-3">{entryKindLabel(entry.kind)}</td>
                <td className="py-2 pr-3">
                  {entry.description} <Status entry={entry} />
                </td>
                <td className="py-2 pr-3 text-slate-800">{touched(entry)}</td>
                <td className="py-2 text-right tabular-nums whitespace-nowrap">{formatCents(entry.amountCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
