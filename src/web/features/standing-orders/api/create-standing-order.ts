import type { PasskeyApprovalStep } from '../../../../shared/contracts/payment-approval';
import type { StandingOrderDto, StandingOrderRequest } from '../../../../shared/contracts/standing-orders';
import type { TransferCodeSent } from '../../../../shared/contracts/transactions';
import { api } from '../../../lib/api';
import { approvalStepOf, type ApprovalStepAnswer } from '../../../lib/approval-steps';

// POST /api/standing-orders: to another account, the first call answers the approval step (an IMS
// code emailed for this mandate, or a passkey challenge derived from it) and the call with the code
// or the passkey's answer creates it; between own accounts, one call.

export type StandingOrderStep = ApprovalStepAnswer<{ order: StandingOrderDto }>;

export async function createStandingOrder(body: StandingOrderRequest, idempotencyKey: string): Promise<StandingOrderStep> {
  const answer = await api.post<TransferCodeSent | PasskeyApprovalStep | StandingOrderDto>('/standing-orders', body, {
    headers: { 'Idempotency-Key': idempotencyKey },
  });
  return approvalStepOf(answer, (order: StandingOrderDto) => ({ order }), 'Standing order set up');
}
