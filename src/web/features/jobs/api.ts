import { queryOptions } from '@tanstack/react-query';
import { JOB_STATES, type JobDto, type JobList } from '../../../shared/contracts/queues';
import { api } from '../../lib/api';

export const JOB_QUEUE_STATES = [...JOB_STATES, 'all'] as const;
export type JobQueueState = (typeof JOB_QUEUE_STATES)[number];

export const jobKeys = {
  all: ['jobs'] as const,
  list: (state: JobQueueState, page: number) => [...jobKeys.all, 'list', state, page] as const,
};

/** The background jobs in a state (or all), with the count in each state. */
export const jobListQuery = (state: JobQueueState, page: number) =>
  queryOptions({
    queryKey: jobKeys.list(state, page),
    queryFn: async () => (await api.get<JobList>(`/admin/jobs?state=${state}&page=${page}`)).data,
  });

/** Runs a failed job again now (the server audits it). */
export async function retryJob(id: string): Promise<string> {
  return (await api.post<JobDto>(`/admin/jobs/${encodeURIComponent(id)}/retry`)).message ?? 'Retried';
}
