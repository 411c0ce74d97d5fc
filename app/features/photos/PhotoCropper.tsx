import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { clampCrop, cropToBlob, initialCrop, MAX_ZOOM, MIN_ZOOM, moveCrop, placement, type CropState } from '../../lib/photo-crop.ts';
import { useTranslation } from '../../lib/i18n.ts';
import './photos.scss';

/** A step of the arrow keys: a twentieth of the frame. */
const KEY_STEP = 0.05;

/**
 * The chosen photo in the card's 5:6 frame: moved by dragging (mouse, pen or finger) or with the arrow keys, zoomed with
 * the slider (or + and −). `crop.current` makes the framed part into the JPEG to upload.
 */
export function PhotoCropper({ src, id, crop, onReady, onUnreadable }: {
  src: string;
  id: string;
  crop: React.RefObject<(() => Promise<Blob>) | null>;
  /** Whether the photo is in the frame, ready to be cropped. */
  onReady: (ready: boolean) => void;
  onUnreadable: () => void;
}) {
  const { t } = useTranslation();
  const image = useRef<HTMLImageElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [state, setState] = useState<CropState | null>(null);
  const drag = useRef<{ pointer: number; x: number; y: number } | null>(null);

  // One photo per cropper: a new photo is a new cropper (the caller keys it by `src`).
  useEffect(() => {
    const img = image.current;
    crop.current = state && img ? () => cropToBlob(img, state) : null;
    onReady(Boolean(crop.current));
    return () => {
      crop.current = null;
      onReady(false);
    };
  }, [crop, state, onReady]);

  const update = (next: (s: CropState, w: number, h: number) => CropState) => {
    if (!size) return;
    setState((s) => (s ? next(s, size.width, size.height) : s));
  };
  const place = size && state ? placement(size.width, size.height, state) : null;
  // Placed from the browser only: the page's Content-Security-Policy refuses style attributes in the server's HTML.
  useLayoutEffect(() => {
    const img = image.current;
    if (!img || !place) return;
    img.style.left = `${place.left}%`;
    img.style.top = `${place.top}%`;
    img.style.width = `${place.width}%`;
    img.style.height = `${place.height}%`;
  });
  const hintId = `${id}-hint`;

  return (
    <div className="photo-cropper" data-testid="photo-cropper" data-zoom={state?.zoom.toFixed(2) ?? ''}>
      <p className="small text-muted" id={hintId}>{t('photo_picker.crop_hint')}</p>
      <div
        ref={frame}
        className="photo-crop-frame rounded mx-auto mb-2"
        role="group"
        aria-label={t('photo_picker.crop_area')}
        aria-describedby={hintId}
        tabIndex={0}
        data-testid="photo-crop-frame"
        onKeyDown={(e) => {
          const moves: Record<string, [number, number]> = { ArrowLeft: [KEY_STEP, 0], ArrowRight: [-KEY_STEP, 0], ArrowUp: [0, KEY_STEP], ArrowDown: [0, -KEY_STEP] };
          const move = moves[e.key];
          if (move) update((s, w, h) => moveCrop(w, h, s, move[0], move[1]));
          else if (e.key === '+' || e.key === '=') update((s, w, h) => clampCrop(w, h, { ...s, zoom: s.zoom + 0.1 }));
          else if (e.key === '-') update((s, w, h) => clampCrop(w, h, { ...s, zoom: s.zoom - 0.1 }));
          else return;
          e.preventDefault();
        }}
        onPointerDown={(e) => {
          if (!state) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          drag.current = { pointer: e.pointerId, x: e.clientX, y: e.clientY };
        }}
        onPointerMove={(e) => {
          const from = drag.current;
          if (!from || from.pointer !== e.pointerId || !frame.current) return;
          const box = frame.current.getBoundingClientRect();
          const dx = (e.clientX - from.x) / box.width;
          const dy = (e.clientY - from.y) / box.height;
          drag.current = { ...from, x: e.clientX, y: e.clientY };
          // The photo follows the pointer: the frame moves the other way over it.
          update((s, w, h) => moveCrop(w, h, s, -dx, -dy));
        }}
        onPointerUp={() => { drag.current = null; }}
        onPointerCancel={() => { drag.current = null; }}
      >
        <img
          ref={image}
          src={src}
          alt=""
          draggable={false}
          className={place ? 'photo-crop-image' : 'photo-crop-image invisible'}
          onLoad={(e) => {
            const { naturalWidth: width, naturalHeight: height } = e.currentTarget;
            if (!width || !height) return onUnreadable();
            setSize({ width, height });
            setState(initialCrop(width, height));
          }}
          onError={onUnreadable}
        />
      </div>
      <div className="photo-crop-zoom mx-auto">
        <Form.Label htmlFor={`${id}-zoom`} className="small mb-0">{t('photo_picker.zoom')}</Form.Label>
        <Form.Range
          id={`${id}-zoom`}
          min={MIN_ZOOM} max={MAX_ZOOM} step={0.05}
          value={state?.zoom ?? 1}
          disabled={!state}
          onChange={(e) => {
            const zoom = Number(e.target.value);
            update((s, w, h) => clampCrop(w, h, { ...s, zoom }));
          }}
          data-testid="photo-zoom"
        />
      </div>
    </div>
  );
}
