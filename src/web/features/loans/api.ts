import { queryOptions } from '@tanstack/react-query';
import type { Paginated } from '../../../shared/contracts/common';
import { LOAN_STATUSES, type LoanApplication, type LoanDto } from '../../../shared/contracts/loans';
import { api } from '../../lib/api';

export const LOAN_QUEUE_STATUSES = [...LOAN_STATUSES, 'all'] as const;
export type LoanQueueStatus = (typeof LOAN_QUEUE_STATUSES)[number];

export const loanKeys = {
  all: ['loans'] as const,
  mine: () => [...loanKeys.all, 'mine'] as const,
  queue: (status: LoanQueueStatus, page: number) => [...loanKeys.all, 'queue', status, page] as const,
};

export const myLoansQuery = () =>
  queryOptions({
    queryKey: loanKeys.mine(),
    queryFn: async () => (await api.get<LoanDto[]>('/loans')).data,
  });

export async function applyForLoan(body: LoanApplication): Promise<string | undefined> {
  return (await api.post<LoanDto>('/loans', body)).message;
}

export async function withdrawLoan(id: string): Promise<string> {
  return (await api.delete<LoanDto>(`/loans/${encodeURIComponent(id)}`)).message ?? 'Loan application withdrawn';
}

/** Pays the loan's next installment from checking; the caller keeps one Idempotency-Key per click, so a retry never pays twice. */
export async function repayLoan(id: string, idempotencyKey: string): Promise<string> {
  const answer = await api.post<LoanDto>(`/loans/${encodeURIComponent(id)}/repayments`, {}, { headers: { 'Idempotency-Key': idempotencyKey } });
  return answer.message ?? 'Installment paid';
}

export const loanQueueQuery = (status: LoanQueueStatus, page: number) =>
  queryOptions({
    queryKey: loanKeys.queue(status, page),
    queryFn: async () => (await api.get<Paginated<LoanDto>>(`/admin/loans?status=${status}&page=${page}`)).data,
  });

/**
 * Approval moves money: one Idempotency-Key per loan shown, so a retried request never pays out
 * twice; it carries the terms shown, which the bank holds the application to (409 if the customer
 * changed it meanwhile).
 */
export async function approveLoan(loan: LoanDto, idempotencyKey: string): Promise<string> {
  const terms = { loanAmount: loan.loanAmount, loanType: loan.loanType, loanDuration: loan.loanDuration };
  const answer = await api.post<LoanDto>(`/admin/loans/${encodeURIComponent(loan._id)}/approve`, terms, { headers: { 'Idempotency-Key': idempotencyKey } });
  return answer.message ?? 'Loan approved';
}

export async function rejectLoan(id: string, reason: string): Promise<string> {
  return (await api.post<LoanDto>(`/admin/loans/${encodeURIComponent(id)}/reject`, { reason })).message ?? 'Loan rejected';
}
