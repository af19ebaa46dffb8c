import type { JournalQuery } from '../../../shared/contracts/journal';
import { ENTRY_KINDS, type EntryKindName } from '../../../shared/contracts/transactions';
import { listSearch } from '../../lib/list-params';

// The journal's state lives in the address (?kind=wire&older=812): a reload, a link from an entry
// page or the back button shows the same page. Booking times travel as ISO instants (what the API
// takes); the form shows them as the reader's local date and time.

export const JOURNAL_PAGE_SIZE = 25;

/** What the filter form holds: every field a string, '' for no filter. */
export interface JournalFilterValues {
  kind: EntryKindName | '';
  customer: string;
  account: string;
  bookedFrom: string;
  bookedTo: string;
  valueFrom: string;
  valueTo: string;
  amountMin: string;
  amountMax: string;
}

export const NO_JOURNAL_FILTER: JournalFilterValues = {
  kind: '',
  customer: '',
  account: '',
  bookedFrom: '',
  bookedTo: '',
  valueFrom: '',
  valueTo: '',
  amountMin: '',
  amountMax: '',
};

const FILTER_NAMES = Object.keys(NO_JOURNAL_FILTER) as Array<keyof JournalFilterValues>;

export interface JournalSearch {
  filter: JournalFilterValues;
  older: string;
  newer: string;
}

export function readJournalSearch(search: URLSearchParams): JournalSearch {
  const filter = { ...NO_JOURNAL_FILTER };
  for (const name of FILTER_NAMES) filter[name] = (search.get(name) ?? '') as never;
  if (filter.kind && !ENTRY_KINDS.includes(filter.kind)) filter.kind = '';
  return { filter, older: search.get('older') ?? '', newer: search.get('newer') ?? '' };
}

/** The address for a filter and a page position. */
export function journalSearch({ filter, older = '', newer = '' }: { filter: JournalFilterValues; older?: string; newer?: string }): URLSearchParams {
  return listSearch({ ...filter, older, newer }, {});
}

/** The API's query for the page the address names. */
export function toJournalQuery({ filter, older, newer }: JournalSearch): JournalQuery {
  const query: Record<string, string | number> = { pageSize: JOURNAL_PAGE_SIZE };
  for (const name of FILTER_NAMES) if (filter[name].trim() !== '') query[name] = filter[name].trim();
  if (older) query.older = older;
  if (newer) query.newer = newer;
  return query as JournalQuery;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO instant as a datetime-local input's value, in the reader's time zone ('' if unreadable). */
export function isoToLocalInput(iso: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local input's value (the reader's time zone) as an ISO instant; what cannot be read is passed on for the contract to refuse. */
export function localInputToIso(local: string): string {
  if (!local) return '';
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}
