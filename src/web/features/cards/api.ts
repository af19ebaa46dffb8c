import { queryOptions } from '@tanstack/react-query';
import { CARD_REQUEST_STATUSES, type CardRequestDto, type CardRequestStatus } from '../../../shared/contracts/cards';
import type { Paginated } from '../../../shared/contracts/common';
import { api } from '../../lib/api';

export const CARD_QUEUE_STATUSES = [...CARD_REQUEST_STATUSES, 'all'] as const;
export type CardQueueStatus = (typeof CARD_QUEUE_STATUSES)[number];

export const cardKeys = {
  all: ['cards'] as const,
  mine: () => [...cardKeys.all, 'mine'] as const,
  queue: (status: CardQueueStatus, page: number) => [...cardKeys.all, 'queue', status, page] as const,
};

export const myCardRequestsQuery = () =>
  queryOptions({
    queryKey: cardKeys.mine(),
    queryFn: async () => (await api.get<CardRequestDto[]>('/cards/requests')).data,
  });

export async function requestCard(body: { cardType: 'debit' | 'credit' }): Promise<string | undefined> {
  return (await api.post<CardRequestDto>('/cards/requests', body)).message;
}

export const cardQueueQuery = (status: CardQueueStatus, page: number) =>
  queryOptions({
    queryKey: cardKeys.queue(status, page),
    queryFn: async () => (await api.get<Paginated<CardRequestDto>>(`/admin/cards/requests?status=${status}&page=${page}`)).data,
  });

export async function setCardStatus(id: string, body: { status: CardRequestStatus; note?: string }): Promise<string> {
  return (await api.patch<CardRequestDto>(`/admin/cards/requests/${encodeURIComponent(id)}`, body)).message ?? 'Saved';
}
