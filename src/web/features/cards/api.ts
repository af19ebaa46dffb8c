import { queryOptions } from '@tanstack/react-query';
import type { CardRequestDto, CardRequestStatus } from '../../../shared/contracts/cards';
import { api } from '../../lib/api';

export const myCardRequestsQuery = queryOptions({
  queryKey: ['cards', 'requests'],
  queryFn: async () => (await api.get<CardRequestDto[]>('/cards/requests')).data,
});

export async function requestCard(cardType: 'debit' | 'credit'): Promise<string | undefined> {
  return (await api.post<CardRequestDto>('/cards/requests', { cardType })).message;
}

export interface CardQueuePage {
  items: CardRequestDto[];
  page: number;
  pageSize: number;
  total: number;
}

export const cardQueueQuery = (status: string, page = 1) =>
  queryOptions({
    queryKey: ['admin', 'cards', status, page],
    queryFn: async () => (await api.get<CardQueuePage>(`/admin/cards/requests?status=${encodeURIComponent(status)}&page=${page}`)).data,
  });

export async function setCardStatus(id: string, status: CardRequestStatus, note?: string): Promise<string> {
  return (await api.patch<CardRequestDto>(`/admin/cards/requests/${encodeURIComponent(id)}`, { status, ...(note ? { note } : {}) })).message ?? 'Saved';
}
