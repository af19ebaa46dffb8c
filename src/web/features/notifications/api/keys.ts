/** The notifications feature's query keys: the list (by filter), the bell's count, the preferences. */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: (filter: { unread: boolean; page: number; pageSize: number }) => [...notificationKeys.all, 'list', filter] as const,
  unread: () => [...notificationKeys.all, 'unread'] as const,
  preferences: () => [...notificationKeys.all, 'preferences'] as const,
};
