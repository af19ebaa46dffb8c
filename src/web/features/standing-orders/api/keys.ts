/** The standing orders feature's query keys: the list, and the saved payees its form offers. */
export const standingOrderKeys = {
  all: ['standing-orders'] as const,
  list: () => [...standingOrderKeys.all, 'list'] as const,
  payees: () => [...standingOrderKeys.all, 'payees'] as const,
};
