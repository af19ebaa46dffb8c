import { queryOptions } from '@tanstack/react-query';
import type { NotificationPreferencesDto } from '../../../../shared/contracts/notifications';
import { api } from '../../../lib/api';
import { notificationKeys } from './keys';

// GET /api/notifications/preferences

export const notificationPreferencesQuery = () =>
  queryOptions({
    queryKey: notificationKeys.preferences(),
    queryFn: async () => (await api.get<NotificationPreferencesDto>('/notifications/preferences')).data,
  });
