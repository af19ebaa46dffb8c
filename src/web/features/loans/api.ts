import { queryOptions } from '@tanstack/react-query';
import type { LoanApplication, LoanDto } from '../../../shared/contracts/loans';
import { api, newIdempotencyKey } from '../../lib/api';

export const myLoansQuery = queryOptions({
  queryKey: ['loans'],
  queryFn: async () => (await api.get<LoanDto[]>('/loans')).data,
});

export async function applyForLoan(body: LoanApplication): Promise<{ loan: LoanDto; message: string | undefined }> {
  const answer = await api.post<LoanDto>('/loans', body);
  return { loan: answer.data, message: answer.message };
}

export async function withdrawLoan(id: string): Promise<string> {
  return (await api.delete<LoanDto>(`/loans/${encodeURIComponent(id)}`)).message ?? 'Loan application withdrawn';
}

/** Pays the loan's next installment from checking; one Idempotency-Key per click, so a retry never pays twice. */
export async function repayLoan(id: string, idempotencyKey = newIdempotencyKey()): Promise<string> {
  const answer = await api.post<LoanDto>(`/loans/${encodeURIComponent(id)}/repayments`, {}, { headers: { 'Idempotency-Key': idempotencyKey } });
  return answer.message ?? 'Installment paid';
}

export interface LoanQueuePage {
  items: LoanDto[];
  page: number;
  pageSize: number;
  total: number;
}

export const loanQueueQuery = (status: string, page = 1) =>
  queryOptions({
    queryKey: ['admin', 'loans', status, page],
    queryFn: async () => (await api.get<LoanQueuePage>(`/admin/loans?status=${encodeURIComponent(status)}&page=${page}`)).data,
  });

/** Approval moves money: one Idempotency-Key per click, so a retried request never pays out twice. */
export async function approveLoan(id: string, idempotencyKey = newIdempotencyKey()): Promise<string> {
  const answer = await api.post<LoanDto>(`/admin/loans/${encodeURIComponent(id)}/approve`, {}, { headers: { 'Idempotency-Key': idempotencyKey } });
  return answer.message ?? 'Loan approved';
}

export async function rejectLoan(id: string, reason: string): Promise<string> {
  return (await api.post<LoanDto>(`/admin/loans/${encodeURIComponent(id)}/reject`, { reason })).message ?? 'Loan rejected';
}
