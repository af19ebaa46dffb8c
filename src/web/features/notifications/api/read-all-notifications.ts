import { api } from '../../../lib/api';

// POST /api/notifications/read-all

export async function readAllNotifications(): Promise<string> {
  return (await api.post<{ updated: number; unread: number }>('/notifications/read-all')).message ?? 'All notifications marked as read';
}
