import type { PasskeyApprovalStep } from '../../../../shared/contracts/payment-approval';
import type { BulkCodeSent, BulkPaymentRequest, BulkResult, BulkRowError } from '../../../../shared/contracts/bulk-payments';
import { api, ApiError } from '../../../lib/api';

/**
 * The first call checks every row and answers the approval step (an IMS code emailed for this batch,
 * or a passkey challenge derived from it); the call with the code or the passkey's answer pays it.
 */
export type BulkAnswer =
  | { kind: 'code'; code: BulkCodeSent; message: string }
  | { kind: 'passkey'; step: PasskeyApprovalStep; message: string }
  | { kind: 'done'; result: BulkResult; message: string };

export async function sendBulkPayment(body: BulkPaymentRequest, idempotencyKey: string): Promise<BulkAnswer> {
  const answer = await api.post<BulkCodeSent | PasskeyApprovalStep | BulkResult>('/transaction/bulk', body, { headers: { 'Idempotency-Key': idempotencyKey } });
  if ('step' in answer.data && answer.data.step === 'code') return { kind: 'code', code: answer.data, message: answer.message ?? '' };
  if ('step' in answer.data && answer.data.step === 'passkey') return { kind: 'passkey', step: answer.data, message: answer.message ?? '' };
  return { kind: 'done', result: answer.data as BulkResult, message: answer.message ?? 'Bulk payment successful' };
}

/** The rows a refused batch names (400 `{ message, rows }`), or none. */
export function rowErrorsOf(error: unknown): BulkRowError[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const rows = error.body?.rows;
  return Array.isArray(rows) ? (rows as BulkRowError[]) : [];
}

/** Where the template downloads from (a plain link: the session cookie goes with it). */
export const BULK_TEMPLATE_URL = '/api/transaction/bulk/template.csv';
