import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { OwnPhoto } from '#common/api-types.ts';
import { PHOTO_MAX_BYTES } from '#common/profile.ts';
import { Alert } from '../../components/Alert.tsx';
import { Progress } from '../../components/Progress.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { api, ApiError } from '../../lib/api.ts';
import { uploadPhoto } from '../../lib/upload.ts';
import { PhotoCropper } from '../photos/PhotoCropper.tsx';
import { PhotoDropZone } from '../photos/PhotoDropZone.tsx';
import { PhotoOrder } from '../photos/PhotoOrder.tsx';
import { savePhotoOrder } from '../photos/save-photo-order.ts';
import { StepHeading } from './StepHeading.tsx';

interface Queued { file: File; url: string }

/**
 * Step 1: photos. Dropped, chosen or taken with the camera; each is fitted to the card's 5:6 (moved and zoomed) and
 * uploaded with its progress shown. The uploaded photos can be put in order; the first is the main photo.
 */
export function PhotoStep({ onDone, skip }: { onDone: () => void; skip: React.ReactNode }) {
  const { t } = useTranslation();
  const [photos, setPhotos] = useState<OwnPhoto[]>([]);
  const [queue, setQueue] = useState<Queued[]>([]);
  const [done, setDone] = useState(0);
  const [progress, setProgress] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const crop = useRef<(() => Promise<Blob>) | null>(null);
  const [ready, setReady] = useState(false);
  const current = queue[0] ?? null;

  // Photos uploaded before (a reload, a step back) are shown and kept in order too.
  useEffect(() => {
    let live = true;
    api<{ photos: OwnPhoto[] }>('/api/photos.php').then((r) => { if (live) setPhotos((p) => (p.length ? p : r.photos)); }).catch(() => undefined);
    return () => { live = false; };
  }, []);
  const urls = useRef(new Set<string>());
  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const next = () => {
    setQueue(([first, ...rest]) => {
      if (first) {
        URL.revokeObjectURL(first.url);
        urls.current.delete(first.url);
      }
      return rest;
    });
    setDone((n) => n + 1);
  };

  const add = (files: File[]) => {
    setError(null);
    const problems: string[] = [];
    const fresh: Queued[] = [];
    for (const file of files) {
      if (!file.type.startsWith('image/')) problems.push(t('photo_picker.not_readable', { name: file.name }));
      else if (file.size > PHOTO_MAX_BYTES) problems.push(t('errors.photo_too_large', { max: PHOTO_MAX_BYTES / 1024 / 1024 }));
      else {
        const url = URL.createObjectURL(file);
        urls.current.add(url);
        fresh.push({ file, url });
      }
    }
    if (problems.length) setError(problems.join(' '));
    if (!queue.length) setDone(0);
    setQueue((q) => [...q, ...fresh]);
  };

  const upload = async () => {
    if (!current || !crop.current) return;
    setError(null);
    setProgress(0);
    try {
      const blob = await crop.current();
      const name = current.file.name.replace(/\.[^.]*$/, '') || 'photo';
      const photo = await uploadPhoto(new File([blob], `${name}.jpg`, { type: 'image/jpeg' }), { onProgress: setProgress, fallbackMessage: t('errors.server_error') });
      setPhotos((list) => [...list, photo]);
      next();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('errors.server_error'));
    } finally {
      setProgress(null);
    }
  };

  const reorder = (order: OwnPhoto[], announce: string) => {
    setError(null);
    return savePhotoOrder(order, photos, {
      show: setPhotos, busy: setSaving,
      saved: () => setAnnouncement(announce),
      failed: (e) => setError(e instanceof ApiError ? e.message : t('errors.server_error')),
    });
  };

  const total = done + queue.length;
  return (
    <div data-testid="signup-step-photo">
      <StepHeading title={t('signup_flow.photo_title')} lead={t('signup_flow.photo_lead')} />
      {current ? (
        <section aria-labelledby="signup-crop-title" className="mb-3" data-testid="signup-photo-crop">
          <h3 className="h6 mb-1" id="signup-crop-title">
            {t('photo_picker.crop_title')}
            {total > 1 && <span className="text-muted fw-normal"> · {t('photo_picker.queue', { current: done + 1, total })}</span>}
          </h3>
          <PhotoCropper
            key={current.url} id="signup-crop" src={current.url} crop={crop} onReady={setReady}
            onUnreadable={() => { setError(t('photo_picker.not_readable', { name: current.file.name })); next(); }}
          />
          {progress !== null && <Progress className="my-2" value={progress} aria-label={t('photos.uploading', { percent: progress })} data-testid="signup-photo-progress" />}
          <div className="d-flex justify-content-between align-items-center flex-wrap gap-2 mt-2">
            <Button variant="link" className="text-muted px-0" onClick={next} disabled={progress !== null} data-testid="signup-photo-leave-out">{t('photo_picker.leave_out')}</Button>
            <Button onClick={() => void upload()} disabled={!ready || progress !== null} data-testid="signup-photo-upload">{t('signup_flow.upload')}</Button>
          </div>
        </section>
      ) : (
        <PhotoDropZone id="signup-photo" onFiles={add} />
      )}
      {error && <Alert variant="danger" data-testid="signup-photo-error" dismissible onClose={() => setError(null)}>{error}</Alert>}
      {photos.length > 0 && (
        <section aria-labelledby="signup-photos-title" data-testid="signup-photos">
          <h3 className="h6 mb-1" id="signup-photos-title">{t('photo_picker.yours')}</h3>
          {photos.length > 1 && <p className="small text-muted mb-2">{t('photo_picker.order_hint')}</p>}
          <PhotoOrder photos={photos} onOrder={(order, announce) => void reorder(order, announce)} busy={saving} />
        </section>
      )}
      <p className="visually-hidden" aria-live="polite" data-testid="photo-order-announcement">{announcement}</p>
      <div className="d-flex justify-content-between align-items-center">
        {photos.length > 0 ? <span /> : skip}
        {photos.length > 0 && !current && <Button onClick={onDone} data-testid="signup-photo-next">{t('signup_flow.next')}</Button>}
      </div>
    </div>
  );
}
