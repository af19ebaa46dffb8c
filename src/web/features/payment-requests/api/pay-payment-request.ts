import type { PasskeyApprovalStep } from '../../../../shared/contracts/payment-approval';
import type { PaymentRequestPaid, PaymentRequestPay } from '../../../../shared/contracts/payment-requests';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { api } from '../../../lib/api';
import { approvalStepOf, type ApprovalStepAnswer } from '../../../lib/approval-steps';

// POST /api/payment-requests/{id}/pay: the first call answers the approval step (an IMS code emailed
// for exactly this payment, or a passkey challenge derived from it); the call with the code or the
// passkey's answer pays the request. Each submit carries its Idempotency-Key.

export type PayAnswer = ApprovalStepAnswer<{ paid: PaymentRequestPaid }>;

export async function payPaymentRequest(id: string, body: PaymentRequestPay, idempotencyKey: string): Promise<PayAnswer> {
  const answer = await api.post<TransferCodeSent | PasskeyApprovalStep | PaymentRequestPaid>(`/payment-requests/${encodeURIComponent(id)}/pay`, body, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return approvalStepOf(answer, (paid: PaymentRequestPaid) => ({ paid }), 'Payment sent');
}
