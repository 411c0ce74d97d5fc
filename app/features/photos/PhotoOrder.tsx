import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { OwnPhoto } from '#common/api-types.ts';
import { useTranslation } from '../../lib/i18n.ts';
import './photos.scss';

/** `list` with the photo at `from` moved to `to`. */
export function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/**
 * The member's photos as thumbnails in their order, the first being the main photo: dragged into place with a mouse,
 * or moved one place with the buttons (keyboard and touch). `onOrder` saves an order; a screen reader hears where
 * the photo went.
 */
export function PhotoOrder({ photos, onOrder, busy }: { photos: OwnPhoto[]; onOrder: (order: OwnPhoto[], announce: string) => void; busy: boolean }) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState<number | null>(null);
  const move = (from: number, to: number) => {
    if (to < 0 || to >= photos.length || from === to) return;
    onOrder(moved(photos, from, to), t('photo_picker.moved', { number: to + 1, total: photos.length }));
  };
  return (
    <ol className="photo-order list-unstyled d-flex flex-wrap gap-2 mb-3" data-testid="photo-order">
      {photos.map((p, i) => (
        <li
          key={p.id}
          className={`photo-order-item border rounded${dragging === i ? ' opacity-50' : ''}`}
          data-testid="photo-order-item"
          data-photo-id={p.id}
          data-main={p.is_main}
          draggable={!busy}
          onDragStart={(e) => {
            setDragging(i);
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', String(p.id));
          }}
          onDragEnd={() => setDragging(null)}
          onDragOver={(e) => {
            if (dragging === null) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = 'move';
          }}
          onDrop={(e) => {
            if (dragging === null) return;
            e.preventDefault();
            move(dragging, i);
            setDragging(null);
          }}
        >
          <img src={`/photos/${p.thumb_filename}`} alt={t('photo_picker.thumb_alt', { number: i + 1 })} width={100} height={120} className="d-block rounded-top photo-order-thumb" draggable={false} />
          <div className="d-flex justify-content-between align-items-center gap-1 p-1">
            <Button
              size="sm" variant="outline-secondary" className="photo-order-move" disabled={busy || i === 0}
              aria-label={t('photo_picker.move_earlier', { number: i + 1 })} title={t('photo_picker.move_earlier', { number: i + 1 })}
              onClick={() => move(i, i - 1)} data-testid="photo-move-earlier"
            >
              <span aria-hidden="true">‹</span>
            </Button>
            <Button
              size="sm" variant="outline-secondary" className="photo-order-move" disabled={busy || i === photos.length - 1}
              aria-label={t('photo_picker.move_later', { number: i + 1 })} title={t('photo_picker.move_later', { number: i + 1 })}
              onClick={() => move(i, i + 1)} data-testid="photo-move-later"
            >
              <span aria-hidden="true">›</span>
            </Button>
          </div>
          <div className="px-1 pb-1 d-flex flex-wrap gap-1">
            {p.is_main && <Badge bg="primary" className="text-wrap">{t('photos.main')}</Badge>}
            {p.status !== 'active' && (
              <Badge bg={p.status === 'pending' ? 'warning' : 'danger'} text={p.status === 'pending' ? 'dark' : undefined} className="text-wrap text-start">
                {t(`photos.status_${p.status}`)}
              </Badge>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
