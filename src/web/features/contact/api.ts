import { queryOptions } from '@tanstack/react-query';
import type { ContactDto, ContactList } from '../../../shared/contracts/contact-messages';
import { api } from '../../lib/api';

export const contactsQuery = (page: number, pageSize = 20) =>
  queryOptions({
    queryKey: ['admin', 'contacts', page, pageSize],
    queryFn: async () => (await api.get<ContactList>(`/contacts?page=${page}&pageSize=${pageSize}`)).data,
  });

export const deleteContact = (id: string) => api.delete<{ _id: string }>(`/contacts/${encodeURIComponent(id)}`);
export const markContactRead = (id: string) => api.post<ContactDto>(`/contacts/${encodeURIComponent(id)}/read`);
