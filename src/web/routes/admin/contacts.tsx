import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Mail, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { CONTACT_DELETE_FAILED_MESSAGE, CONTACT_DELETED_MESSAGE, type ContactDto } from '../../../shared/contracts/contact-messages';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Pager } from '../../components/ui/pager';
import { PageTitle } from '../../components/ui/card';
import { contactsQuery, deleteContact, markContactRead } from '../../features/contact/api';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';

const PAGE_SIZE = 20;

function ContactItem({ contact, onDelete, deleting }: { contact: ContactDto; onDelete: () => void; deleting: boolean }) {
  const queryClient = useQueryClient();
  const read = useMutation({
    mutationFn: () => markContactRead(contact._id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'contacts'] }),
    onError: (error) => toast.error(errorMessage(error)),
  });
  const headingId = `contact-${contact._id}`;
  return (
    <li aria-labelledby={headingId} className={`rounded-xl border bg-white p-5 shadow-sm ${contact.readAt ? 'border-slate-200' : 'border-brand-500'}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            {!contact.readAt ? <span className="mr-2 rounded bg-brand-700 px-2 py-0.5 text-xs font-bold uppercase text-white">New</span> : null}
            {contact.subject}
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            From <span className="font-medium text-slate-900">{contact.name}</span>{' '}
            <a href={`mailto:${contact.email}`} className="text-brand-800 underline">
              {contact.email}
            </a>
            {contact.phone ? ` · ${contact.phone}` : ''} · <time dateTime={contact.createdAt}>{formatDate(contact.createdAt, 'dateTime')}</time>
          </p>
        </div>
        <div className="flex gap-2">
          {!contact.readAt ? (
            <Button variant="secondary" onClick={() => read.mutate()} disabled={read.isPending}>
              <Mail aria-hidden="true" className="h-4 w-4" />
              Mark as read
            </Button>
          ) : null}
          <Button variant="danger" onClick={onDelete} disabled={deleting} aria-label={`Delete message from ${contact.name}: ${contact.subject}`}>
            <Trash2 aria-hidden="true" className="h-4 w-4" />
            Delete
          </Button>
        </div>
      </div>
      <p className="mt-4 whitespace-pre-line break-words text-slate-800">{contact.message}</p>
    </li>
  );
}

export default function AdminContactsPage() {
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const { data, error, isPending } = useQuery(contactsQuery(page, PAGE_SIZE));
  const remove = useMutation({
    mutationFn: (id: string) => deleteContact(id),
    onSuccess: () => toast.success(CONTACT_DELETED_MESSAGE),
    onError: () => toast.error(CONTACT_DELETE_FAILED_MESSAGE),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'contacts'] }),
  });
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  const confirmDelete = (contact: ContactDto) => {
    if (window.confirm(`Delete the message from ${contact.name} (${contact.subject})? This cannot be undone.`)) remove.mutate(contact._id);
  };

  return (
    <div>
      <PageTitle subtitle={data ? `${data.total} message${data.total === 1 ? '' : 's'}, ${data.unread} new` : undefined}>Contacts</PageTitle>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? (
        <p role="status" className="text-slate-700">
          Loading messages...
        </p>
      ) : null}
      {data && data.items.length === 0 ? <p className="text-slate-700">No contact messages yet.</p> : null}
      {data && data.items.length > 0 ? (
        <ul className="space-y-4" aria-label="Contact messages">
          {data.items.map((contact) => (
            <ContactItem
              key={contact._id}
              contact={contact}
              deleting={remove.isPending && remove.variables === contact._id}
              onDelete={() => confirmDelete(contact)}
            />
          ))}
        </ul>
      ) : null}
      {data && pages > 1 ? <Pager page={page} pageSize={data.pageSize} total={data.total} label="Contact messages" onPage={setPage} /> : null}
    </div>
  );
}
