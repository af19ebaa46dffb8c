import type { NotificationDto } from '../../../../shared/contracts/notifications';
import { api } from '../../../lib/api';

// POST /api/notifications/{id}/read

export async function readNotification(id: string): Promise<NotificationDto> {
  return (await api.post<NotificationDto>(`/notifications/${encodeURIComponent(id)}/read`)).data;
}
