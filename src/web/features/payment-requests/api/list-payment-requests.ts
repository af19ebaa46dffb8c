import { queryOptions } from '@tanstack/react-query';
import type { PaymentRequestLists } from '../../../../shared/contracts/payment-requests';
import { api } from '../../../lib/api';
import { paymentRequestKeys } from './keys';

// GET /api/payment-requests?page=&pageSize=

/** The requests the customer received and sent, newest first. */
export const paymentRequestsQuery = (page: { page: number; pageSize: number }) =>
  queryOptions({
    queryKey: paymentRequestKeys.lists(page),
    queryFn: async () => (await api.get<PaymentRequestLists>(`/payment-requests?page=${page.page}&pageSize=${page.pageSize}`)).data,
  });
