import { useState, type ReactNode } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { GalleryPhoto } from '#common/api-types.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePhotoUrl } from '../../lib/photo-url.ts';
import './gallery.scss';

/** How far a photo must be dragged or swiped to move to the next one. */
const SWIPE_THRESHOLD_PX = 50;

/**
 * A profile's photos that the viewer may see (the server leaves out the rest, or sends them locked), one at a time:
 * moved by swipe or mouse drag, the previous/next buttons and the arrow keys, with the position ("2 / 5") shown and
 * announced. The first photo is the page's largest paint and loads at once; the others load when they come near.
 * `badge`: what to lay over a photo (the owner sees "waiting for approval"); `onShow`: the photo now shown.
 */
export function ProfileGallery({ photos, name, badge, onShow, children }: {
  photos: GalleryPhoto[]; name: string; badge?: (photo: GalleryPhoto) => ReactNode; onShow?: (photo: GalleryPhoto) => void; children?: ReactNode;
}) {
  const { t } = useTranslation();
  const photoUrl = usePhotoUrl();
  const [index, setIndex] = useState(0);
  const [drag, setDrag] = useState<{ startX: number; dx: number; width: number } | null>(null);
  const [announced, setAnnounced] = useState('');
  const total = photos.length;
  const current = Math.min(index, total - 1);

  const go = (to: number) => {
    if (to < 0 || to >= total || to === current) return;
    setIndex(to);
    setAnnounced(t('member_profile.photo_position', { number: to + 1, total }));
    onShow?.(photos[to]);
  };

  const onPointerDown = (e: React.PointerEvent) => {
    if (total < 2 || (e.pointerType === 'mouse' && e.button !== 0)) return;
    if ((e.target as HTMLElement).closest('button, a')) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ startX: e.clientX, dx: 0, width: e.currentTarget.clientWidth });
  };
  const onPointerMove = (e: React.PointerEvent) => {
    if (drag) setDrag({ ...drag, dx: e.clientX - drag.startX });
  };
  const onPointerUp = () => {
    if (!drag) return;
    if (drag.dx < -SWIPE_THRESHOLD_PX) go(current + 1);
    else if (drag.dx > SWIPE_THRESHOLD_PX) go(current - 1);
    setDrag(null);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowRight') go(current + 1);
    else if (e.key === 'ArrowLeft') go(current - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(total - 1);
    else return;
    e.preventDefault();
  };

  if (total === 0) return null;
  // The server's HTML carries no style attribute (docs/decisions/052): on the first photo the track needs none. Once
  // another photo is shown or one is dragged, in the browser, React sets the offset through the CSSOM.
  // Past the first or the last photo the track gives a little, and springs back.
  const atEdge = drag && ((current === 0 && drag.dx > 0) || (current === total - 1 && drag.dx < 0));
  const offset = drag?.width ? (drag.dx / drag.width) * 100 * (atEdge ? 0.3 : 1) : 0;
  const style = current > 0 || drag ? { transform: `translateX(${-current * 100 + offset}%)` } : undefined;
  return (
    <section
      className="profile-gallery" aria-roledescription="carousel" aria-label={t('member_profile.gallery_label', { name })}
      tabIndex={0} onKeyDown={onKeyDown} data-testid="gallery" data-index={current}
    >
      <div
        className={`profile-gallery-frame${drag ? ' dragging' : ''}`}
        onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={() => setDrag(null)}
      >
        {/* eslint-disable-next-line no-restricted-syntax -- set in the browser only, see above */}
        <div className="profile-gallery-track" style={style}>
          {photos.map((p, i) => (
            <div
              key={p.id} className="profile-gallery-slide" role="group" aria-roledescription="slide" aria-hidden={i !== current}
              aria-label={t('member_profile.photo_position', { number: i + 1, total })} data-testid="gallery-photo" data-photo-id={p.id}
            >
              <img
                src={photoUrl(p.filename!, p.status === 'active' && !p.is_private)}
                alt={t('member_profile.photo_number', { number: i + 1, name })}
                width={500} height={600} draggable={false}
                loading={i === 0 ? 'eager' : 'lazy'} fetchPriority={i === 0 ? 'high' : undefined}
                data-testid={i === current ? 'gallery-main' : undefined}
              />
              {badge?.(p)}
            </div>
          ))}
        </div>
        {total > 1 && (
          <>
            <div className="profile-gallery-bars" aria-hidden="true">
              {photos.map((p, i) => <span key={p.id} className={i === current ? 'active' : undefined} />)}
            </div>
            <span className="profile-gallery-count" aria-hidden="true" data-testid="gallery-position">{current + 1} / {total}</span>
            <button
              type="button" className="profile-gallery-nav prev" onClick={() => go(current - 1)} disabled={current === 0}
              aria-label={t('member_profile.previous_photo')} data-testid="gallery-previous"
            >
              <ChevronLeft aria-hidden="true" />
            </button>
            <button
              type="button" className="profile-gallery-nav next" onClick={() => go(current + 1)} disabled={current === total - 1}
              aria-label={t('member_profile.next_photo')} data-testid="gallery-next"
            >
              <ChevronRight aria-hidden="true" />
            </button>
          </>
        )}
        {children}
      </div>
      <p className="visually-hidden" aria-live="polite" data-testid="gallery-announcement">{announced}</p>
    </section>
  );
}
