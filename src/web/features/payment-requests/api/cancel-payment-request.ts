import type { PaymentRequestDto } from '../../../../shared/contracts/payment-requests';
import { api } from '../../../lib/api';

// POST /api/payment-requests/{id}/cancel: the requester withdraws a pending request.

export async function cancelPaymentRequest(id: string): Promise<{ request: PaymentRequestDto; message: string }> {
  const answer = await api.post<PaymentRequestDto>(`/payment-requests/${encodeURIComponent(id)}/cancel`);
  return { request: answer.data, message: answer.message ?? 'Payment request cancelled' };
}
