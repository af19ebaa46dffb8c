export const statementKeys = {
  all: ['statements'] as const,
  list: () => [...statementKeys.all, 'list'] as const,
  calendar: () => [...statementKeys.all, 'calendar'] as const,
};
