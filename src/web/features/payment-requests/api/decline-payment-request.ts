import type { PaymentRequestDto } from '../../../../shared/contracts/payment-requests';
import { api } from '../../../lib/api';

// POST /api/payment-requests/{id}/decline

export async function declinePaymentRequest(id: string): Promise<{ request: PaymentRequestDto; message: string }> {
  const answer = await api.post<PaymentRequestDto>(`/payment-requests/${encodeURIComponent(id)}/decline`);
  return { request: answer.data, message: answer.message ?? 'Payment request declined' };
}
