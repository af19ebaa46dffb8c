import type { PaymentRequestCreate, PaymentRequestDto } from '../../../../shared/contracts/payment-requests';
import { api } from '../../../lib/api';

// POST /api/payment-requests: the same answer whether or not `to` is a customer.

export async function createPaymentRequest(body: PaymentRequestCreate): Promise<{ request: PaymentRequestDto; message: string }> {
  const answer = await api.post<PaymentRequestDto>('/payment-requests', body);
  return { request: answer.data, message: answer.message ?? 'Payment request sent' };
}
