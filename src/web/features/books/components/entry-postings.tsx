import { Link } from 'react-router';
import type { JournalPostingDto } from '../../../../shared/contracts/journal';
import { DataTable } from '../../../components/ui/data-table';
import { paths } from '../../../paths';
import { balanceCents, isBankAccount, signedCents } from '../format';

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
 * All the lines of one entry: what it did to each account and the balance right after. The back
 * office's one list (DataTable): a table from 768 px, one card per line below; the amounts sum to zero.
 */
export function EntryPostings({ postings }: { postings: JournalPostingDto[] }) {
  return (
    <DataTable
      caption="Postings of this entry: the amounts sum to zero"
      rows={postings}
      rowKey={(posting) => posting.accountId}
      rowProps={() => ({ 'data-testid': 'posting-row' })}
      columns={[
        { header: 'Account', kind: 'title', cell: (posting) => <AccountName posting={posting} /> },
        {
          header: 'Memo',
          cell: (posting) => [posting.memo, posting.counterparty].filter(Boolean).join(' · ') || <span className="text-slate-700">None</span>,
        },
        { header: 'Amount', align: 'right', className: 'tabular-nums md:whitespace-nowrap', cell: (posting) => signedCents(posting.amountCents) },
        { header: 'Balance after', align: 'right', className: 'tabular-nums md:whitespace-nowrap', cell: (posting) => balanceCents(posting.balanceAfterCents) },
        { header: 'Links', headerHidden: true, kind: 'actions', cell: (posting) => <AccountJournalLink posting={posting} /> },
      ]}
    />
  );
}
