import type { NotificationPreferencesDto, NotificationPreferencesUpdate } from '../../../../shared/contracts/notifications';
import { api } from '../../../lib/api';

// PUT /api/notifications/preferences

export async function updateNotificationPreferences(
  body: NotificationPreferencesUpdate,
): Promise<{ preferences: NotificationPreferencesDto; message: string }> {
  const answer = await api.put<NotificationPreferencesDto>('/notifications/preferences', body);
  return { preferences: answer.data, message: answer.message ?? 'Notification preferences saved' };
}
