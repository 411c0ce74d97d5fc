import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { PHOTO_MAX_BYTES } from '#common/profile.ts';
import { useTranslation } from '../../lib/i18n.ts';
import './photos.scss';

/** The formats a browser can show and crop (HEIF cannot be drawn on a canvas in most browsers). */
export const CROPPABLE_TYPES = 'image/jpeg,image/png,image/webp';

/**
 * Where photos come in: dropped on the zone (one or more), chosen with the button (keyboard or click), or, on a phone,
 * taken with the camera. Hands on the image files; anything else is left for the caller to name as not readable.
 */
export function PhotoDropZone({ id, onFiles, disabled = false }: { id: string; onFiles: (files: File[]) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const chooser = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  // A camera of its own only where there is one at hand: a touch screen (elsewhere `capture` just opens the chooser).
  const [phone, setPhone] = useState(false);
  useEffect(() => setPhone(window.matchMedia('(pointer: coarse)').matches), []);

  const take = (list: FileList | null) => {
    const files = [...(list ?? [])];
    if (files.length && !disabled) onFiles(files);
  };
  const hintId = `${id}-hint`;
  return (
    <div
      className={`photo-drop-zone rounded p-3 mb-3 text-center${over ? ' photo-drop-zone-over' : ''}`}
      data-testid="photo-drop-zone"
      onDragOver={(e) => {
        if (![...e.dataTransfer.types].includes('Files')) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        if (![...e.dataTransfer.types].includes('Files')) return;
        e.preventDefault();
        setOver(false);
        take(e.dataTransfer.files);
      }}
    >
      <p className="mb-2" id={hintId}>{t('photo_picker.drop_hint')}</p>
      <div className="d-flex flex-wrap justify-content-center gap-2 mb-2">
        <Button variant="outline-primary" onClick={() => chooser.current?.click()} disabled={disabled} aria-describedby={hintId} data-testid="photo-choose">
          {t('photo_picker.choose')}
        </Button>
        {phone && (
          <Button variant="outline-primary" onClick={() => camera.current?.click()} disabled={disabled} data-testid="photo-camera">
            {t('photo_picker.camera')}
          </Button>
        )}
      </div>
      <p className="small text-muted mb-0">{t('photo_picker.formats', { max: PHOTO_MAX_BYTES / 1024 / 1024 })}</p>
      {/* Reached through the buttons above; the chooser allows several photos, the camera takes one. */}
      <input
        id={id} ref={chooser} type="file" accept={CROPPABLE_TYPES} multiple hidden tabIndex={-1}
        onChange={(e) => { take(e.target.files); e.target.value = ''; }}
      />
      <input
        id={`${id}-camera`} ref={camera} type="file" accept="image/*" capture="user" hidden tabIndex={-1}
        onChange={(e) => { take(e.target.files); e.target.value = ''; }}
      />
    </div>
  );
}
