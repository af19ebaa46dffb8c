import { LOAN_PRODUCTS, type LoanDto } from '../../../../shared/contracts/loans';
import { formatDate, formatDollars } from '../../../lib/format';

export const loanLabel = (type: LoanDto['loanType']) => LOAN_PRODUCTS[type].label;

export const STATUS_STYLES: Record<LoanDto['status'], { label: string; className: string }> = {
  pending: { label: 'Processing', className: 'bg-amber-100 text-amber-900' },
  approved: { label: 'Approved', className: 'bg-green-100 text-green-900' },
  rejected: { label: 'Declined', className: 'bg-red-100 text-red-900' },
  withdrawn: { label: 'Withdrawn', className: 'bg-slate-200 text-slate-800' },
};

/** The back office's words for the same states: its queue's tabs and its rows' badges say the same. */
export const STAFF_STATUS_LABELS: Record<LoanDto['status'], string> = {
  pending: 'Waiting for a decision',
  approved: 'Approved',
  rejected: 'Rejected',
  withdrawn: 'Withdrawn',
};

/** A loan's status; `labels` for the back office's words (the customer's by default). */
export function LoanStatusBadge({ status, labels }: { status: LoanDto['status']; labels?: Record<LoanDto['status'], string> }) {
  const style = STATUS_STYLES[status];
  return <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${style.className}`}>{labels?.[status] ?? style.label}</span>;
}

/** How far an approved loan is repaid, in one sentence (null before approval). */
export function loanProgress(loan: LoanDto): string | null {
  if (loan.status !== 'approved' || !loan.schedule) return null;
  if (loan.repaidAt) return `Fully repaid on ${formatDate(loan.repaidAt)}.`;
  return `${loan.installmentsPaid} of ${loan.schedule.length} installments paid · ${formatDollars(loan.outstanding)} of principal outstanding.`;
}
