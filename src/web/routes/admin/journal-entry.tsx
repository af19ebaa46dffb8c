import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { JournalEntryDetailDto } from '../../../shared/contracts/journal';
import { Alert } from '../../components/ui/alert';
import { Breadcrumb } from '../../components/ui/breadcrumb';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { journalEntryQuery } from '../../features/books/api/get-journal-entry';
import { EntryAudit } from '../../features/books/components/entry-audit';
import { EntryPostings } from '../../features/books/components/entry-postings';
import { ReversalForm } from '../../features/ledger/components/reversal-form';
import { entryKindLabel } from '../../features/books/format';
import { errorMessage } from '../../lib/api';
import { useInlineConfirmation } from '../../lib/focus';
import { formatCents, formatDate, formatNumber } from '../../lib/format';
import { prefetch } from '../../lib/query';
import { paths } from '../../paths';
import type { Route } from './+types/journal-entry';
import { staffPageTitle } from '../../lib/title';
import { requireStaffPage, ROLES, useStaffMay } from '../../lib/staff-access';
import { EmailAddress } from '../../components/ui/email-address';

export function meta() {
  return [{ title: staffPageTitle('Journal entry') }];
}

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  await requireStaffPage('adminJournalEntry');
  return prefetch(journalEntryQuery(params.id));
}

function EntryRef({ label, entry }: { label: string; entry: NonNullable<JournalEntryDetailDto['reversal']> }) {
  return (
    <>
      <dt className="font-medium text-slate-800">{label}</dt>
      <dd className="min-w-0">
        <Link to={paths.adminJournalEntry(entry.id)} className="font-semibold text-brand-800 hover:underline">
          {entry.description}
        </Link>{' '}
        <span className="text-slate-700">
          (<time dateTime={entry.bookedAt}>{formatDate(entry.bookedAt, 'dateTime')}</time>)
        </span>
      </dd>
    </>
  );
}

function Summary({ entry }: { entry: JournalEntryDetailDto }) {
  const [reversing, setReversing] = useState(false);
  const confirmation = useInlineConfirmation<HTMLFormElement>({ open: reversing, onCancel: () => setReversing(false) });
  // Reversing is finance's (ADR 022); support reads the entry.
  const reversible = useStaffMay()(ROLES.finance) && entry.kind !== 'reversal' && !entry.reversal;
  return (
    <Card title="Entry">
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-800">Kind</dt>
        <dd>{entryKindLabel(entry.kind)}</dd>
        <dt className="font-medium text-slate-800">Description</dt>
        <dd className="min-w-0">
          {entry.description}
          {entry.description !== entry.postedDescription ? <span className="block text-slate-700">Posted as: {entry.postedDescription}</span> : null}
        </dd>
        <dt className="font-medium text-slate-800">Amount</dt>
        <dd className="tabular-nums">{formatCents(entry.amountCents)}</dd>
        <dt className="font-medium text-slate-800">Booked</dt>
        <dd>
          <time dateTime={entry.bookedAt}>{formatDate(entry.bookedAt, 'dateTimeSeconds')}</time>
        </dd>
        <dt className="font-medium text-slate-800">Value date</dt>
        <dd>{formatDate(entry.valueDate)}</dd>
        <dt className="font-medium text-slate-800">Posted by</dt>
        <dd className="min-w-0">
          {entry.authorEmail ? <EmailAddress value={entry.authorEmail} /> : entry.authorId ? 'A staff member' : 'The bank (a customer’s request or a job)'}
        </dd>
        {entry.reason ? (
          <>
            <dt className="font-medium text-slate-800">Reason</dt>
            <dd className="min-w-0">{entry.reason}</dd>
          </>
        ) : null}
        {entry.approval ? (
          <>
            <dt className="font-medium text-slate-800">Approved by</dt>
            <dd className="min-w-0 break-words" data-testid="entry-approval">
              {entry.approval.decidedBy?.email ? <EmailAddress value={entry.approval.decidedBy.email} /> : 'A second staff member'}
              {entry.approval.decidedAt ? (
                <>
                  {' '}
                  on <time dateTime={entry.approval.decidedAt}>{formatDate(entry.approval.decidedAt, 'dateTime')}</time>
                </>
              ) : null}{' '}
              (asked by {entry.approval.requestedBy.email ? <EmailAddress value={entry.approval.requestedBy.email} /> : entry.approval.requestedBy.name},{' '}
              <time dateTime={entry.approval.requestedAt}>{formatDate(entry.approval.requestedAt, 'dateTime')}</time>)
            </dd>
          </>
        ) : null}
        {entry.reverses ? <EntryRef label="Reverses" entry={entry.reverses} /> : null}
        {entry.reversal ? <EntryRef label="Reversed by" entry={entry.reversal} /> : null}
      </dl>
      {reversible && !reversing ? (
        <div className="mt-4">
          <Button ref={confirmation.opener} variant="danger" onClick={() => setReversing(true)}>
            Reverse this entry
          </Button>
        </div>
      ) : null}
      {reversible && reversing ? (
        <ReversalForm
          entryId={entry.id}
          explanation="A reversal entry cancels every posting of this one; this entry stays in the journal marked as reversed."
          className="mt-4"
          onDone={() => setReversing(false)}
          onCancel={confirmation.cancel}
          ref={confirmation.panel}
        />
      ) : null}
    </Card>
  );
}

/** Its link on the hash chain: its hash and its predecessor's, which the ledger verification recomputes. */
function ChainLink({ chain }: { chain: JournalEntryDetailDto['chain'] }) {
  return (
    <Card title="Hash chain">
      {chain ? (
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-800">Position</dt>
          <dd className="tabular-nums">{formatNumber(chain.position)}</dd>
          <dt className="font-medium text-slate-800">Hash</dt>
          <dd className="min-w-0">
            <code className="break-all font-mono text-xs" data-testid="entry-hash">
              {chain.hash}
            </code>
          </dd>
          <dt className="font-medium text-slate-800">Previous hash</dt>
          <dd className="min-w-0">
            <code className="break-all font-mono text-xs" data-testid="entry-prev-hash">
              {chain.prevHash}
            </code>
            {chain.prevEntryId ? (
              <Link to={paths.adminJournalEntry(chain.prevEntryId)} className="mt-1 block text-sm font-semibold text-brand-800 hover:underline">
                Previous entry on the chain
              </Link>
            ) : (
              <span className="mt-1 block text-sm text-slate-700">The first entry on the chain</span>
            )}
          </dd>
          <dt className="font-medium text-slate-800">Chained</dt>
          <dd>
            <time dateTime={chain.sealedAt}>{formatDate(chain.sealedAt, 'dateTimeSeconds')}</time>
          </dd>
        </dl>
      ) : (
        <p className="text-sm text-slate-700">Not chained yet: the sealer links new entries within a second or so. Reload to see its hash.</p>
      )}
    </Card>
  );
}

export default function AdminJournalEntryPage() {
  const { id = '' } = useParams();
  const { data: entry, isPending, error } = useQuery(journalEntryQuery(id));
  const title = entry ? `Entry ${formatNumber(entry.seq)}` : 'Journal entry';
  return (
    <div className="space-y-6">
      <Breadcrumb trail={[{ label: 'Home', to: paths.adminDashboard }, { label: 'Journal', to: paths.adminJournal }, { label: title }]} />
      <PageTitle subtitle={entry ? entry.description : undefined}>{title}</PageTitle>
      {error ? <Alert tone="error">{errorMessage(error)}</Alert> : null}
      {isPending ? <p role="status">Loading...</p> : null}
      {entry ? (
        <>
          <Summary entry={entry} />
          <Card title="Postings">
            <EntryPostings postings={entry.postings} />
          </Card>
          <ChainLink chain={entry.chain} />
          {entry.descriptionNotes.length > 0 ? (
            <Card title="Description changes">
              <ol className="space-y-2 text-sm">
                {entry.descriptionNotes.map((note) => (
                  <li key={note.at} className="break-words">
                    <time dateTime={note.at} className="text-slate-700">
                      {formatDate(note.at, 'dateTime')}
                    </time>
                    : {note.description}
                  </li>
                ))}
              </ol>
            </Card>
          ) : null}
          <Card title="Audit records">
            <EntryAudit records={entry.audit} />
          </Card>
        </>
      ) : null}
    </div>
  );
}
