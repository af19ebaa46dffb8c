import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { KYC_DOCUMENT_TYPES, ZKycRejectRequest, type KycFileDto, type KycSubmissionDto } from '../../../../shared/contracts/kyc';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ReasonForm } from '../../../components/ui/reason-form';
import { useAction } from '../../../lib/action';
import { useInlineConfirmation } from '../../../lib/focus';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { approveKyc, kycCustomerQuery, rejectKyc } from '../api';
import { ROLES, useStaffMay } from '../../../lib/staff-access';

const typeLabel = (value: string) => KYC_DOCUMENT_TYPES.find((type) => type.value === value)?.label ?? value;
const STATUS_TEXT: Record<string, string> = { awaiting: 'Not submitted', pending: 'Under review', verified: 'Verified', failed: 'Failed' };

function DocumentView({ label, file }: { label: string; file: KycFileDto }) {
  return (
    <figure className="rounded-lg border border-slate-200 p-3">
      <figcaption className="mb-2 text-sm font-semibold text-slate-800">{label}</figcaption>
      {file.mediaType.startsWith('image/') ? (
        <a href={file.url} target="_blank" rel="noreferrer" className="block focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
          <img src={file.url} alt={label} className="max-h-[12rem] rounded border border-slate-100" />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : (
        <a href={file.url} className="font-medium text-brand-800 underline">
          Download {label.toLowerCase()} (PDF)
        </a>
      )}
    </figure>
  );
}

function Decision({ submission }: { submission: KycSubmissionDto }) {
  const [rejecting, setRejecting] = useState(false);
  const confirmation = useInlineConfirmation<HTMLFormElement>({ open: rejecting, onCancel: () => setRejecting(false) });
  const approve = useAction(() => approveKyc(submission.id), { successToast: (message) => message });
  return (
    <div className="space-y-3">
      {approve.error ? <Alert tone="error">{approve.error.message}</Alert> : null}
      {!rejecting ? (
        <div className="flex flex-wrap gap-3">
          <Button onClick={() => void approve.run()} disabled={approve.busy}>
            Approve
          </Button>
          <Button ref={confirmation.opener} variant="danger" onClick={() => setRejecting(true)} disabled={approve.busy}>
            Reject
          </Button>
        </div>
      ) : (
        <ReasonForm
          label="Reason for rejection"
          schema={ZKycRejectRequest}
          send={(reason) => rejectKyc(submission.id, reason)}
          onCancel={confirmation.cancel}
          ref={confirmation.panel}
        />
      )}
    </div>
  );
}

/** A customer's verification documents with approve / reject-with-reason (rendered on /admin/users/{id} too). */
export function KycReviewPanel({ userId }: { userId: string }) {
  const may = useStaffMay();
  const { data, isPending, error } = useQuery(kycCustomerQuery(userId));
  if (isPending)
    return (
      <p role="status" className="text-slate-700">
        Loading verification documents...
      </p>
    );
  if (error) return <Alert tone="error">{errorMessage(error)}</Alert>;
  const [latest, ...earlier] = data.submissions;
  return (
    <section aria-label="Verification documents" className="space-y-4">
      <p className="text-sm text-slate-800">
        Verification status: <strong>{STATUS_TEXT[data.verificationStatus] ?? data.verificationStatus}</strong>
      </p>
      {!latest ? (
        <p className="text-slate-700">This customer has not submitted verification documents.</p>
      ) : (
        <>
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-slate-700">Document type</dt>
              <dd className="font-medium text-slate-900">{typeLabel(latest.documentType)}</dd>
            </div>
            <div>
              <dt className="text-slate-700">Date of birth given</dt>
              <dd className="font-medium text-slate-900">{formatDate(latest.dateOfBirth)}</dd>
            </div>
            <div>
              <dt className="text-slate-700">Submitted</dt>
              <dd className="font-medium text-slate-900">{formatDate(latest.createdAt, 'dateTime')}</dd>
            </div>
          </dl>
          <div className="grid gap-4 md:grid-cols-3">
            <DocumentView label="Passport image" file={latest.passportImage} />
            <DocumentView label={`${typeLabel(latest.documentType)} document`} file={latest.document} />
            <DocumentView label="Proof of address" file={latest.proofOfAddress} />
          </div>
          {latest.status === 'pending' && may(ROLES.compliance) ? (
            <Decision key={latest.id} submission={latest} />
          ) : (
            <p className="text-sm text-slate-800">
              This submission was {latest.status === 'verified' ? 'approved' : 'rejected'}
              {latest.reviewedAt ? ` on ${formatDate(latest.reviewedAt, 'dateTime')}` : ''}
              {latest.reason ? `: ${latest.reason}` : '.'}
            </p>
          )}
        </>
      )}
      {earlier.length > 0 ? (
        <details className="text-sm text-slate-800">
          <summary className="cursor-pointer font-medium">Earlier submissions ({earlier.length})</summary>
          <ul className="mt-2 list-disc pl-5">
            {earlier.map((submission) => (
              <li key={submission.id}>
                {formatDate(submission.createdAt)}: {typeLabel(submission.documentType)}, {STATUS_TEXT[submission.status] ?? submission.status}
                {submission.reason ? ` (${submission.reason})` : ''}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
