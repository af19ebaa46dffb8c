import type { InternalTransferRequest, TransactionDto, TransferCodeSent, TransferRequest, WireTransferRequest } from '../../../shared/contracts/transactions';
import { api } from '../../lib/api';
import { queryClient } from '../../lib/query';

export type StepAnswer = { kind: 'code'; code: TransferCodeSent; message: string } | { kind: 'done'; line: TransactionDto; message: string };

function refresh(): void {
  void queryClient.invalidateQueries({ queryKey: ['me'] });
  void queryClient.invalidateQueries({ queryKey: ['transactions'] });
}

export async function internalTransfer(body: InternalTransferRequest, idempotencyKey: string): Promise<{ line: TransactionDto; message: string }> {
  const answer = await api.post<TransactionDto>('/transaction/internal-transfer', body, { headers: { 'Idempotency-Key': idempotencyKey } });
  refresh();
  return { line: answer.data, message: answer.message ?? 'Transfer Successful' };
}

async function step(url: string, body: unknown, idempotencyKey: string): Promise<StepAnswer> {
  const answer = await api.post<TransferCodeSent | TransactionDto>(url, body, { headers: { 'Idempotency-Key': idempotencyKey } });
  if ('step' in answer.data && answer.data.step === 'code') return { kind: 'code', code: answer.data, message: answer.message ?? '' };
  refresh();
  return { kind: 'done', line: answer.data as TransactionDto, message: answer.message ?? 'Transfer Successful' };
}

export const sendTransfer = (body: TransferRequest, idempotencyKey: string) => step('/transaction/transfer', body, idempotencyKey);
export const sendWire = (body: WireTransferRequest, idempotencyKey: string) => step('/transaction/wire-transfer', body, idempotencyKey);

export async function savePayee(body: {
  name: string;
  accountNumber: string;
  routingNumber: string;
  bankName: string;
}): Promise<{ ok: boolean; message: string; notAvailable: boolean }> {
  try {
    const answer = await api.post<unknown>('/beneficiaries', body);
    return { ok: true, message: answer.message ?? 'Payee saved', notAvailable: false };
  } catch (error) {
    const status = (error as { status?: number }).status;
    return { ok: false, message: error instanceof Error ? error.message : 'An error occurred', notAvailable: status === 404 };
  }
}
