import type { PasskeyApprovalStep } from '../../../../shared/contracts/payment-approval';
import type { PaymentRequestPaid, PaymentRequestPay } from '../../../../shared/contracts/payment-requests';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { api } from '../../../lib/api';

// POST /api/payment-requests/{id}/pay: the first call answers the approval step (an IMS code emailed
// for exactly this payment, or a passkey challenge derived from it); the call with the code or the
// passkey's answer pays the request. Each submit carries its Idempotency-Key.

export type PayAnswer =
  | { kind: 'code'; code: TransferCodeSent; message: string }
  | { kind: 'passkey'; step: PasskeyApprovalStep; message: string }
  | { kind: 'paid'; paid: PaymentRequestPaid; message: string };

export async function payPaymentRequest(id: string, body: PaymentRequestPay, idempotencyKey: string): Promise<PayAnswer> {
  const answer = await api.post<TransferCodeSent | PasskeyApprovalStep | PaymentRequestPaid>(`/payment-requests/${encodeURIComponent(id)}/pay`, body, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  if ('step' in answer.data && answer.data.step === 'passkey') return { kind: 'passkey', step: answer.data, message: answer.message ?? '' };
  if ('step' in answer.data) return { kind: 'code', code: answer.data, message: answer.message ?? '' };
  return { kind: 'paid', paid: answer.data, message: answer.message ?? 'Payment sent' };
}
