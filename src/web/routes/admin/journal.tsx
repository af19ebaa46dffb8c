import { ChevronDown } from 'lucide-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { ButtonLink } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { ledgerAccountsQuery } from '../../features/books/api/list-accounts';
import { journalPageQuery } from '../../features/books/api/list-journal';
import { JOURNAL_FILTER_LABELS, JournalFilterForm } from '../../features/books/components/journal-filter-form';
import { JournalList } from '../../features/books/components/journal-list';
import { journalSearch, readJournalSearch, toJournalQuery } from '../../features/books/filter';
import { errorMessage } from '../../lib/api';
import { inFormWords } from '../../lib/form';
import { searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import type { Route } from './+types/journal';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';

/** An address edited by hand ("?amountMin=lots") is refused in the filters' words, as the form refuses it. */
const inFilterWords = inFormWords(JOURNAL_FILTER_LABELS);

export function meta() {
  return [{ title: staffPageTitle('Journal') }];
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminJournal');
  return prefetch(journalPageQuery(toJournalQuery(readJournalSearch(searchOf(request)))), ledgerAccountsQuery());
}

/**
 * The whole journal (issue 15): every entry on every account, the bank's own included, newest
 * first, paged by key (an entry's position), so a page is as quick at the millionth entry as at the first.
 */
export default function AdminJournalPage() {
  const [search, setSearch] = useSearchParams();
  const state = useMemo(() => readJournalSearch(search), [search]);
  const list = useQuery({ ...journalPageQuery(toJournalQuery(state)), placeholderData: keepPreviousData });
  const activeFilters = Object.values(state.filter).filter((value) => value !== '').length;
  const filtered = activeFilters > 0;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const pageLink = (cursor: { older?: string; newer?: string }) => `${paths.adminJournal}?${journalSearch({ filter: state.filter, ...cursor }).toString()}`;

  return (
    <div className="space-y-6">
      <PageTitle subtitle="Every entry on every account, the bank's own included, newest first">Journal</PageTitle>
      {/* On a phone the filters fold away behind one button (with the count in force), so the entries come first. */}
      <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <button
          type="button"
          className="flex w-full items-center justify-between gap-3 rounded-md text-left font-semibold text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 md:hidden"
          aria-expanded={filtersOpen}
          aria-controls="journal-filters"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          <span>
            Filters{' '}
            {activeFilters > 0 ? <span className="ml-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">{activeFilters} active</span> : null}
          </span>
          <ChevronDown aria-hidden="true" className={`h-5 w-5 transition-transform ${filtersOpen ? 'rotate-180' : ''}`} />
        </button>
        <div id="journal-filters" className={filtersOpen ? 'max-md:mt-4' : 'max-md:hidden'}>
          <JournalFilterForm
            value={state.filter}
            onApply={(filter) => {
              setSearch(journalSearch({ filter }));
              setFiltersOpen(false);
            }}
          />
        </div>
      </div>
      <Card>
        {list.isPending ? (
          <p role="status" className="text-slate-700">
            Loading...
          </p>
        ) : list.isError ? (
          <Alert tone="error">{inFilterWords(errorMessage(list.error))}</Alert>
        ) : (
          <div className="space-y-4">
            {list.data.items.length === 0 ? (
              <p role="status" className="text-slate-700 [overflow-wrap:anywhere]">
                {list.data.customerFound === false
                  ? `No customer matches “${state.filter.customer.trim()}”: check the email, account number or id.`
                  : filtered
                    ? 'No entries match these filters.'
                    : 'No entries on this page.'}
              </p>
            ) : (
              <JournalList entries={list.data.items} />
            )}
            {list.data.newerCursor || list.data.olderCursor ? (
              <nav aria-label="Journal pages" className="flex flex-wrap justify-between gap-3">
                {list.data.newerCursor ? (
                  <ButtonLink variant="secondary" to={pageLink({ newer: list.data.newerCursor })}>
                    Newer entries
                  </ButtonLink>
                ) : (
                  <span />
                )}
                {list.data.olderCursor ? (
                  <ButtonLink variant="secondary" to={pageLink({ older: list.data.olderCursor })}>
                    Older entries
                  </ButtonLink>
                ) : null}
              </nav>
            ) : null}
          </div>
        )}
      </Card>
    </div>
  );
}
