import { useQuery } from '@tanstack/react-query';
import { Mail, Trash2 } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { CONTACT_DELETE_FAILED_MESSAGE, CONTACT_DELETED_MESSAGE, type ContactDto } from '../../../shared/contracts/contact-messages';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ConfirmInline } from '../../components/ui/confirm-inline';
import { DataTable } from '../../components/ui/data-table';
import { PageTitle } from '../../components/ui/card';
import { Pager } from '../../components/ui/pager';
import { contactsQuery, deleteContact, markContactRead } from '../../features/contact/api';
import { useAction } from '../../lib/action';
import { errorMessage } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { listSearch, pageParam, searchOf } from '../../lib/list-params';
import { prefetch } from '../../lib/query';
import type { Route } from './+types/contacts';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage } from '../../lib/staff-access';
import { EmailAddress } from '../../components/ui/email-address';

export function meta() {
  return [{ title: staffPageTitle('Contacts') }];
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminContacts');
  return prefetch(contactsQuery(pageParam(searchOf(request))));
}

/** The actions' width in the table, the buttons' and the question's alike. */
const actionsWidth = 'md:w-52';

/** Mark as read and delete, for one message. */
function ContactActions({ contact }: { contact: ContactDto }) {
  const read = useAction(() => markContactRead(contact._id), { errorToast: true });
  // A message someone else already deleted answers 404: the spec's failure toast, and the list is refreshed all the same.
  const remove = useAction(() => deleteContact(contact._id), {
    successToast: CONTACT_DELETED_MESSAGE,
    errorToast: CONTACT_DELETE_FAILED_MESSAGE,
    refresh: 'always',
  });
  // Stacked in a table (the message and its sender keep the width), side by side on a card. The
  // question takes the place of both buttons, at their width: in the table both are one width, the
  // least the question's Delete message button fits in, so opening it leaves every column as it was
  // (a wider question widened the column by about 100 px and squeezed the sender and subject).
  return (
    <ConfirmInline
      question={`Delete the message from ${contact.name} (${contact.subject})? This cannot be undone.`}
      confirmLabel="Delete message"
      busyLabel="Deleting..."
      tone="danger"
      onConfirm={() => remove.run()}
      width={actionsWidth}
    >
      {(opener) => (
        <div className="flex flex-wrap gap-2 md:flex-col md:items-stretch">
          {!contact.readAt ? (
            <Button variant="secondary" onClick={() => void read.run()} disabled={read.busy} aria-label={`Mark as read: ${contact.subject}`}>
              <Mail aria-hidden="true" className="h-4 w-4" />
              Mark as read
            </Button>
          ) : null}
          <Button {...opener} variant="danger" disabled={remove.busy} aria-label={`Delete message from ${contact.name}: ${contact.subject}`}>
            <Trash2 aria-hidden="true" className="h-4 w-4" />
            Delete
          </Button>
        </div>
      )}
    </ConfirmInline>
  );
}

/** The messages in the back office's one list (DataTable): a table from 768 px, one card per message below it. */
function ContactList({ contacts }: { contacts: ContactDto[] }) {
  return (
    <DataTable
      caption="Contact messages, newest first"
      rows={contacts}
      rowKey={(contact) => contact._id}
      rowProps={(contact) => ({ 'data-testid': 'contact-row', className: contact.readAt ? '' : 'max-md:border-brand-500!' })}
      columns={[
        {
          header: 'Subject',
          kind: 'title',
          cell: (contact) => (
            <>
              {!contact.readAt ? <span className="mr-2 rounded bg-brand-700 px-2 py-0.5 text-xs font-bold uppercase text-white">New</span> : null}
              {/* Words wrap anywhere: a long unbroken word would otherwise be the table's least width (break-words is not). */}
              <span className="font-semibold [overflow-wrap:anywhere]">{contact.subject}</span>
            </>
          ),
        },
        {
          header: 'From',
          cell: (contact) => (
            <>
              <span className="block font-medium [overflow-wrap:anywhere]">{contact.name}</span>
              <a href={`mailto:${contact.email}`} className="block text-brand-800 underline">
                <EmailAddress value={contact.email} />
              </a>
              {contact.phone ? <span className="block">{contact.phone}</span> : null}
            </>
          ),
        },
        {
          header: 'Received',
          cell: (contact) => <time dateTime={contact.createdAt}>{formatDate(contact.createdAt, 'dateTime')}</time>,
        },
        {
          header: 'Message',
          className: 'md:min-w-64',
          cell: (contact) => <span className="whitespace-pre-line text-slate-800 [overflow-wrap:anywhere]">{contact.message}</span>,
        },
        { header: 'Actions', kind: 'actions', headerHidden: true, cell: (contact) => <ContactActions contact={contact} /> },
      ]}
    />
  );
}

export default function AdminContactsPage() {
  const [search, setSearch] = useSearchParams();
  const page = pageParam(search);
  const { data, error, isPending } = useQuery(contactsQuery(page));
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

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
      {data && data.items.length > 0 ? <ContactList contacts={data.items} /> : null}
      {data && pages > 1 ? (
        <Pager page={page} pageSize={data.pageSize} total={data.total} label="Contact messages" onPage={(next) => setSearch(listSearch({ page: next }))} />
      ) : null}
    </div>
  );
}
