import type { PasskeyApprovalStep } from '../../../../shared/contracts/payment-approval';
import type { BulkCodeSent, BulkPaymentRequest, BulkResult, BulkRowError } from '../../../../shared/contracts/bulk-payments';
import { api, ApiError } from '../../../lib/api';
import { approvalStepOf, type ApprovalStepAnswer } from '../../../lib/approval-steps';

/**
 * The first call checks every row and answers the approval step (an IMS code emailed for this batch,
 * or a passkey challenge derived from it); the call with the code or the passkey's answer pays it.
 */
export type BulkAnswer = ApprovalStepAnswer<{ result: BulkResult }, BulkCodeSent>;

export async function sendBulkPayment(body: BulkPaymentRequest, idempotencyKey: string): Promise<BulkAnswer> {
  const answer = await api.post<BulkCodeSent | PasskeyApprovalStep | BulkResult>('/transaction/bulk', body, { headers: { 'Idempotency-Key': idempotencyKey } });
  return approvalStepOf<BulkResult, { result: BulkResult }, BulkCodeSent>(answer, (result) => ({ result }), 'Bulk payment successful');
}

/** The rows a refused batch names (400 `{ message, rows }`), or none. */
export function rowErrorsOf(error: unknown): BulkRowError[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const rows = error.body?.rows;
  return Array.isArray(rows) ? (rows as BulkRowError[]) : [];
}

/** Where the template downloads from (a plain link: the session cookie goes with it). */
export const BULK_TEMPLATE_URL = '/api/transaction/bulk/template.csv';
