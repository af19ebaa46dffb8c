import { queryOptions } from '@tanstack/react-query';
import type { AnchorDto, AnchorList } from '../../../shared/contracts/anchors';
import { api } from '../../lib/api';

// The anchors of the general ledger page (ADR 014): the signed heads of the ledger and audit chains.

export const ANCHOR_PAGE_SIZE = 10;

export const anchorKeys = {
  all: ['anchors'] as const,
  list: (page: number) => [...anchorKeys.all, 'list', page] as const,
};

/** The anchors written to ANCHOR_FILE, newest first. */
export const anchorListQuery = (page: number) =>
  queryOptions({
    queryKey: anchorKeys.list(page),
    queryFn: async () => (await api.get<AnchorList>(`/admin/ledger/anchors?page=${page}&pageSize=${ANCHOR_PAGE_SIZE}`)).data,
    placeholderData: (previous) => previous,
  });

/** Signs both chain heads now and appends the line to ANCHOR_FILE (the server audits it). */
export async function anchorNow(): Promise<{ anchor: AnchorDto; message: string }> {
  const answer = await api.post<AnchorDto>('/admin/ledger/anchors');
  return { anchor: answer.data, message: answer.message ?? `Anchor ${answer.data.seq} written.` };
}
