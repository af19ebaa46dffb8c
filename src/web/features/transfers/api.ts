import type { PasskeyApprovalStep } from '../../../shared/contracts/payment-approval';
import type { InternalTransferRequest, TransactionDto, TransferCodeSent, TransferRequest, WireTransferRequest } from '../../../shared/contracts/transactions';
import { api } from '../../lib/api';
import { approvalStepOf, type ApprovalStepAnswer } from '../../lib/approval-steps';

// Money leaving the customer's accounts. Every call carries an Idempotency-Key: a retry of the same
// submit replays the first answer and never pays twice. (The history these lines land in is the
// ledger feature's; useAction refreshes it after a transfer.)

export type StepAnswer = ApprovalStepAnswer<{ line: TransactionDto }>;

const withKey = (idempotencyKey: string) => ({ headers: { 'Idempotency-Key': idempotencyKey } });

/** Between the customer's own accounts: no code, posted at once. */
export async function internalTransfer(body: InternalTransferRequest, idempotencyKey: string): Promise<{ line: TransactionDto; message: string }> {
  const answer = await api.post<TransactionDto>('/transaction/internal-transfer', body, withKey(idempotencyKey));
  return { line: answer.data, message: answer.message ?? 'Transfer Successful' };
}

/**
 * The first call answers the approval step: an IMS code emailed for exactly this transfer, or (a
 * customer with a passkey) a challenge derived from it. The call with the code or the passkey's answer posts it.
 */
async function step(url: string, body: TransferRequest | WireTransferRequest, idempotencyKey: string): Promise<StepAnswer> {
  const answer = await api.post<TransferCodeSent | PasskeyApprovalStep | TransactionDto>(url, body, withKey(idempotencyKey));
  return approvalStepOf(answer, (line: TransactionDto) => ({ line }), 'Transfer Successful');
}

export const sendTransfer = (body: TransferRequest, idempotencyKey: string) => step('/transaction/transfer', body, idempotencyKey);
export const sendWire = (body: WireTransferRequest, idempotencyKey: string) => step('/transaction/wire-transfer', body, idempotencyKey);
