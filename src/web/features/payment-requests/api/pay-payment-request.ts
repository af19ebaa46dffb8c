import type { PaymentRequestPaid, PaymentRequestPay } from '../../../../shared/contracts/payment-requests';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { api } from '../../../lib/api';

// POST /api/payment-requests/{id}/pay: without paymentPin the bank emails an IMS code for exactly
// this payment; with it, the request is paid. Each submit carries its Idempotency-Key.

export type PayAnswer = { kind: 'code'; code: TransferCodeSent; message: string } | { kind: 'paid'; paid: PaymentRequestPaid; message: string };

export async function payPaymentRequest(id: string, body: PaymentRequestPay, idempotencyKey: string): Promise<PayAnswer> {
  const answer = await api.post<TransferCodeSent | PaymentRequestPaid>(`/payment-requests/${encodeURIComponent(id)}/pay`, body, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  if ('step' in answer.data) return { kind: 'code', code: answer.data, message: answer.message ?? '' };
  return { kind: 'paid', paid: answer.data, message: answer.message ?? 'Payment sent' };
}
