/** The payment requests feature's query keys: both lists, by page. */
export const paymentRequestKeys = {
  all: ['payment-requests'] as const,
  lists: (page: { page: number; pageSize: number }) => [...paymentRequestKeys.all, 'lists', page] as const,
};
