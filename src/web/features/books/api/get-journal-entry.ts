import { queryOptions } from '@tanstack/react-query';
import type { JournalEntryDetailDto } from '../../../../shared/contracts/journal';
import { api } from '../../../lib/api';
import { bookKeys } from './keys';

/** GET /admin/journal/{id}: one entry with all its postings, its place on the chain, its reversal and its audit records. */
export const journalEntryQuery = (id: string) =>
  queryOptions({
    queryKey: bookKeys.entry(id),
    queryFn: async () => (await api.get<JournalEntryDetailDto>(`/admin/journal/${encodeURIComponent(id)}`)).data,
  });
