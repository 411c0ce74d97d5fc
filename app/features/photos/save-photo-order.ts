import type { OwnPhoto } from '#common/api-types.ts';
import { api } from '../../lib/api.ts';

/**
 * Shows a new order of the member's photos at once and saves it (PUT /api/photo-order.php): the saved list comes
 * back through `show`; when the server refuses, the order shown before comes back and `failed` gets the error.
 */
export async function savePhotoOrder(order: OwnPhoto[], before: OwnPhoto[], on: {
  show: (photos: OwnPhoto[]) => void; busy: (busy: boolean) => void; saved: () => void; failed: (error: unknown) => void;
}): Promise<void> {
  on.show(order);
  on.busy(true);
  try {
    const saved = await api<{ photos: OwnPhoto[] }>('/api/photo-order.php', { method: 'PUT', body: { order: order.map((p) => p.id) } });
    on.show(saved.photos);
    on.saved();
  } catch (error) {
    on.show(before);
    on.failed(error);
  } finally {
    on.busy(false);
  }
}
