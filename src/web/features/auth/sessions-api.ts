import { queryOptions } from '@tanstack/react-query';
import type { SessionDto, SessionsEnded } from '../../../shared/contracts/sessions';
import { api } from '../../lib/api';

// Where the signed-in customer is signed in: the list, ending one, ending all the others.

export const sessionKeys = { mine: ['auth', 'sessions'] as const };

export const mySessionsQuery = () =>
  queryOptions({
    queryKey: sessionKeys.mine,
    queryFn: async () => (await api.get<SessionDto[]>('/auth/sessions')).data,
  });

export async function endSession(id: string): Promise<string | undefined> {
  return (await api.delete<SessionsEnded>(`/auth/sessions/${encodeURIComponent(id)}`)).message;
}

export async function endOtherSessions(): Promise<string | undefined> {
  return (await api.post<SessionsEnded>('/auth/sessions/revoke-others')).message;
}
