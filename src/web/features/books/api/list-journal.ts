import { queryOptions } from '@tanstack/react-query';
import type { JournalPage, JournalQuery } from '../../../../shared/contracts/journal';
import { api } from '../../../lib/api';
import { bookKeys, queryString } from './keys';

/** GET /admin/journal: every entry on every account, newest first, filtered, paged by key (older / newer). */
export const journalPageQuery = (query: JournalQuery) =>
  queryOptions({
    queryKey: bookKeys.journal(query),
    queryFn: async () => (await api.get<JournalPage>(`/admin/journal${queryString(query as Record<string, string | number | undefined>)}`)).data,
  });
