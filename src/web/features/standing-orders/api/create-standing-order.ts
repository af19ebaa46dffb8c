import type { StandingOrderDto, StandingOrderRequest } from '../../../../shared/contracts/standing-orders';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { api } from '../../../lib/api';

// POST /api/standing-orders: to another account, the first call (no paymentPin) emails an IMS code
// bound to this mandate and the call with the code creates it; between own accounts, one call.

export type StandingOrderStep = { kind: 'code'; code: TransferCodeSent; message: string } | { kind: 'done'; order: StandingOrderDto; message: string };

export async function createStandingOrder(body: StandingOrderRequest, idempotencyKey: string): Promise<StandingOrderStep> {
  const answer = await api.post<TransferCodeSent | StandingOrderDto>('/standing-orders', body, { headers: { 'Idempotency-Key': idempotencyKey } });
  if ('step' in answer.data && answer.data.step === 'code') return { kind: 'code', code: answer.data, message: answer.message ?? '' };
  return { kind: 'done', order: answer.data as StandingOrderDto, message: answer.message ?? 'Standing order set up' };
}
