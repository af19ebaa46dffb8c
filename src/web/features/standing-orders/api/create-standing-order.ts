import type { PasskeyApprovalStep } from '../../../../shared/contracts/payment-approval';
import type { StandingOrderDto, StandingOrderRequest } from '../../../../shared/contracts/standing-orders';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { api } from '../../../lib/api';

// POST /api/standing-orders: to another account, the first call answers the approval step (an IMS
// code emailed for this mandate, or a passkey challenge derived from it) and the call with the code
// or the passkey's answer creates it; between own accounts, one call.

export type StandingOrderStep =
  | { kind: 'code'; code: TransferCodeSent; message: string }
  | { kind: 'passkey'; step: PasskeyApprovalStep; message: string }
  | { kind: 'done'; order: StandingOrderDto; message: string };

export async function createStandingOrder(body: StandingOrderRequest, idempotencyKey: string): Promise<StandingOrderStep> {
  const answer = await api.post<TransferCodeSent | PasskeyApprovalStep | StandingOrderDto>('/standing-orders', body, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  if ('step' in answer.data && answer.data.step === 'code') return { kind: 'code', code: answer.data, message: answer.message ?? '' };
  if ('step' in answer.data && answer.data.step === 'passkey') return { kind: 'passkey', step: answer.data, message: answer.message ?? '' };
  return { kind: 'done', order: answer.data as StandingOrderDto, message: answer.message ?? 'Standing order set up' };
}
