export const timelineKeys = {
  all: ['timeline'] as const,
  customer: (userId: string) => [...timelineKeys.all, userId] as const,
};
