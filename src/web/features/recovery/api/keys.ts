// One key factory for support recoveries (ADR 025): the customer's own and the back office's.
export const recoveryKeys = {
  all: ['recovery'] as const,
  mine: () => [...recoveryKeys.all, 'mine'] as const,
  ofCustomer: (userId: string) => [...recoveryKeys.all, 'customer', userId] as const,
};
