// Placeholder: the KYC feature (issue 5) fills this with the documents and approve/reject.
export function KycReviewPanel({ userId }: { userId: string }) {
  return <p className="text-slate-700" data-user-id={userId}>Verification documents are not available yet.</p>;
}
