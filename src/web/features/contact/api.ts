import { queryOptions } from '@tanstack/react-query';
import type { ContactDto, ContactList, ContactRequest } from '../../../shared/contracts/contacts';
import { PAGE_SIZE_DEFAULT } from '../../../shared/limits';
import { api } from '../../lib/api';

export const contactKeys = {
  all: ['contacts'] as const,
  inbox: (page: number) => [...contactKeys.all, 'inbox', page] as const,
};

/** The public contact form; a visitor is never sent to /signin. */
export async function sendContactMessage(body: ContactRequest): Promise<void> {
  await api.post<ContactDto>('/contacts', body, { redirectOn401: false });
}

/** The bank's inbox in the back office, newest first. */
export const contactsQuery = (page: number) =>
  queryOptions({
    queryKey: contactKeys.inbox(page),
    queryFn: async () => (await api.get<ContactList>(`/contacts?page=${page}&pageSize=${PAGE_SIZE_DEFAULT}`)).data,
  });

export async function deleteContact(id: string): Promise<void> {
  await api.delete<{ _id: string }>(`/contacts/${encodeURIComponent(id)}`);
}

export async function markContactRead(id: string): Promise<void> {
  await api.post<ContactDto>(`/contacts/${encodeURIComponent(id)}/read`);
}
