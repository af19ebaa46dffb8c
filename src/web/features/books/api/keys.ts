import type { JournalQuery } from '../../../../shared/contracts/journal';

/** One key factory for the back office's books: the journal, its entries, the ledger's accounts and the reports. */
export const bookKeys = {
  all: ['books'] as const,
  journal: (query: JournalQuery) => [...bookKeys.all, 'journal', query] as const,
  entry: (id: string) => [...bookKeys.all, 'entry', id] as const,
  accounts: (ownerId: string) => [...bookKeys.all, 'accounts', ownerId] as const,
  reportDays: () => [...bookKeys.all, 'report-days'] as const,
  trialBalance: (date: string, page: number) => [...bookKeys.all, 'trial-balance', date, page] as const,
  balanceAt: (accountId: string, date: string) => [...bookKeys.all, 'balance-at', accountId, date] as const,
};

/** `?a=1&b=2` from the values that are set (empty ones are no filter). */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
