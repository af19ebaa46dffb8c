import { Link } from 'react-router';
import type { JournalPostingDto } from '../../../../shared/contracts/journal';
import { formatCents } from '../../../lib/format';
import { paths } from '../../../paths';
import { isBankAccount, signedCents } from '../format';

function AccountName({ posting }: { posting: JournalPostingDto }) {
  if (isBankAccount(posting.accountKind)) return <span className="font-medium text-slate-900">{posting.accountName} (bank)</span>;
  return (
    <span className="text-slate-900">
      <span className="font-medium">{posting.accountName}</span> {posting.accountNumber}
      {posting.ownerId ? (
        <>
          {' · '}
          <Link to={paths.adminUser(posting.ownerId)} className="font-medium text-brand-800 hover:underline">
            {posting.ownerName || 'Customer'}
          </Link>
        </>
      ) : null}
    </span>
  );
}

/** Each account's own journal: the entries that touched it. */
function AccountJournalLink({ posting }: { posting: JournalPostingDto }) {
  return (
    <Link to={`${paths.adminJournal}?account=${encodeURIComponent(posting.accountId)}`} className="text-sm font-semibold text-brand-800 hover:underline">
      Journal<span className="sr-only"> of the {posting.accountName} account</span>
    </Link>
  );
}

/**
 * All the lines of one entry: what it did to each account and the balance right after. A table
 * from 768 px, one card per line below; the amounts sum to zero.
 */
export function EntryPostings({ postings }: { postings: JournalPostingDto[] }) {
  return (
    <>
      <ul className="space-y-3 md:hidden" aria-label="Postings">
        {postings.map((posting) => (
          <li key={posting.accountId} className="rounded-lg border border-slate-200 p-4" data-testid="posting">
            <p className="min-w-0 break-words">
              <AccountName posting={posting} />
            </p>
            <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-700">Amount</dt>
              <dd className="tabular-nums text-slate-900">{signedCents(posting.amountCents)}</dd>
              <dt className="text-slate-700">Balance after</dt>
              <dd className="tabular-nums text-slate-900">{formatCents(posting.balanceAfterCents)}</dd>
              {posting.memo ? (
                <>
                  <dt className="text-slate-700">Memo</dt>
                  <dd className="break-words text-slate-900">{posting.memo}</dd>
                </>
              ) : null}
              {posting.counterparty ? (
                <>
                  <dt className="text-slate-700">Counterparty</dt>
                  <dd className="break-words text-slate-900">{posting.counterparty}</dd>
                </>
              ) : null}
            </dl>
            <p className="mt-2">
              <AccountJournalLink posting={posting} />
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Postings of this entry: the amounts sum to zero</caption>
          <thead className="border-b border-slate-300 text-slate-800">
            <tr>
              <th scope="col" className="py-2 pr-3">
                Account
              </th>
              <th scope="col" className="py-2 pr-3">
                Memo
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Amount
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                Balance after
              </th>
              <th scope="col" className="py-2">
                <span className="sr-only">Links</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {postings.map((posting) => (
              <tr key={posting.accountId} className="align-top" data-testid="posting-row">
                <td className="py-2 pr-3">
                  <AccountName posting={posting} />
                </td>
                <td className="py-2 pr-3 text-slate-800">{[posting.memo, posting.counterparty].filter(Boolean).join(' · ')}</td>
                <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">{signedCents(posting.amountCents)}</td>
                <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">{formatCents(posting.balanceAfterCents)}</td>
                <td className="py-2 text-right">
                  <AccountJournalLink posting={posting} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
