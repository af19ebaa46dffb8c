import type { StandingOrderDto } from '../../../../shared/contracts/standing-orders';
import { api } from '../../../lib/api';

// DELETE /api/standing-orders/{id}

export async function cancelStandingOrder(id: string): Promise<{ order: StandingOrderDto; message: string }> {
  const answer = await api.delete<StandingOrderDto>(`/standing-orders/${encodeURIComponent(id)}`);
  return { order: answer.data, message: answer.message ?? 'Standing order cancelled' };
}
