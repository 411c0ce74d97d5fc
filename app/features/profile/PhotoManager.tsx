import { useEffect, useRef, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Progress } from '../../components/Progress.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { Link, useLocation } from 'react-router';
import type { OwnPhoto } from '#common/api-types.ts';
import { PHOTO_MAX_BYTES } from '#common/profile.ts';
import { api, ApiError } from '../../lib/api.ts';
import { uploadPhoto } from '../../lib/upload.ts';
import { useRootData } from '../../lib/root-data.ts';
import { PhotoOrder } from '../photos/PhotoOrder.tsx';
import { savePhotoOrder } from '../photos/save-photo-order.ts';

/** The photo section's anchor on /profile (the missing-photo alert links to it). */
export const PHOTOS_ANCHOR = 'photos';

const STATUS_VARIANT = { pending: 'warning', active: 'success', rejected: 'danger' } as const;

/**
 * The member's photos on /profile: upload with progress, their order (the first public one is the main photo), status,
 * main photo, private switch, delete; the photo-limit alert.
 */
export function PhotoManager({ initial, limit, premium, onChange }: {
  initial: OwnPhoto[]; limit: number; premium: boolean; onChange?: () => void;
}) {
  const { t } = useTranslation();
  const afterPublication = useRootData().settings.photo_moderation === 'after';
  const [photos, setPhotos] = useState(initial);
  const [progress, setProgress] = useState<number | null>(null);
  const [lastProgress, setLastProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [isPrivate, setIsPrivate] = useState(false);
  const [ordering, setOrdering] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const used = photos.filter((p) => p.status !== 'rejected').length;
  const full = used >= limit;
  // The "Add a photo" alert links to /profile#photos: the upload is far down the page, so it is brought into view and
  // given the focus (the file chooser opens with one key or tap).
  const { hash } = useLocation();
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (hash !== `#${PHOTOS_ANCHOR}`) return;
    card.current?.scrollIntoView({ block: 'start' });
    input.current?.focus({ preventScroll: true });
  }, [hash]);

  const run = async (work: () => Promise<{ photos: OwnPhoto[] }>) => {
    setError(null);
    setNotice(null);
    try {
      setPhotos((await work()).photos);
      onChange?.();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
    }
  };

  /** Shown in the new order at once; back to the old one, with the server's reason, when it refuses. */
  const reorder = (order: OwnPhoto[], announce: string) => {
    setError(null);
    setNotice(null);
    return savePhotoOrder(order, photos, {
      show: setPhotos, busy: setOrdering,
      saved: () => { setAnnouncement(announce); onChange?.(); },
      failed: (err) => setError(err instanceof ApiError ? err.message : t('errors.server_error')),
    });
  };

  const upload = async () => {
    const file = input.current?.files?.[0];
    setError(null);
    setNotice(null);
    if (!file) {
      setError(t('errors.photo_missing'));
      return;
    }
    // Checked here to spare the wait; the server checks again.
    if (file.size > PHOTO_MAX_BYTES) {
      setError(t('errors.photo_too_large', { max: PHOTO_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    setProgress(0);
    try {
      const photo = await uploadPhoto(file, {
        isPrivate, fallbackMessage: t('errors.server_error'),
        onProgress: (p) => { setProgress(p); setLastProgress(p); },
      });
      setPhotos((list) => [...list, photo]);
      setNotice(t(afterPublication ? 'photos.uploaded_after' : 'photos.uploaded'));
      if (input.current) input.current.value = '';
      onChange?.();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Card ref={card} id={PHOTOS_ANCHOR} className="shadow-sm mb-4 scroll-below-nav" data-testid="photo-manager" data-last-progress={lastProgress ?? ''}>
      <Card.Body>
        <div className="d-flex justify-content-between align-items-baseline flex-wrap gap-2">
          <h2 className="h5 mb-1">{t('photos.title')}</h2>
          <span className="small text-muted" data-testid="photo-count">{t('photos.count', { used, limit })}</span>
        </div>
        <p className="small text-muted">{t(afterPublication ? 'photos.lead_after' : 'photos.lead')}</p>
        {full ? (
          <Alert variant="warning" data-testid="photo-limit-alert">
            {t('photos.limit_reached', { limit })}
            {!premium && (
              <>
                {' '}{t('photos.limit_premium_hint', { limit: 25 })}{' '}
                <Link to="/premium" className="alert-link">{t('photos.get_premium')}</Link>
              </>
            )}
          </Alert>
        ) : (
          <Form onSubmit={(e) => { e.preventDefault(); void upload(); }} className="mb-3" data-testid="photo-upload-form">
            <FormField
              id="photo-file" className="mb-2" label={t('photos.choose')} labelClassName="small" description={t('photos.formats', { max: PHOTO_MAX_BYTES / 1024 / 1024 })}
              type="file" ref={input} accept="image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif,image/gif" disabled={progress !== null}
            />
            {premium ? (
              <Form.Check id="photo-private" className="mb-2" label={t('photos.private_label')} checked={isPrivate} onChange={(e) => setIsPrivate(e.target.checked)} />
            ) : (
              <p className="small text-muted mb-2">{t('photos.private_premium')}</p>
            )}
            <Button type="submit" variant="primary" disabled={progress !== null} data-testid="photo-upload">{t('photos.upload')}</Button>
          </Form>
        )}
        {progress !== null && (
          <div className="mb-3" data-testid="upload-progress">
            <div className="small text-muted mb-1" id="upload-progress-label">{t('photos.uploading', { percent: progress })}</div>
            <Progress value={progress} aria-labelledby="upload-progress-label" />
          </div>
        )}
        {error && <Alert variant="danger" data-testid="photo-error" dismissible onClose={() => setError(null)}>{error}</Alert>}
        {notice && <Alert variant="success" data-testid="photo-notice" dismissible onClose={() => setNotice(null)}>{notice}</Alert>}
        {photos.length > 1 && (
          <section aria-labelledby="photo-order-title" data-testid="photo-order-section">
            <h3 className="h6 mb-1" id="photo-order-title">{t('photos.order_title')}</h3>
            <p className="small text-muted mb-2">{t('photo_picker.order_hint')}</p>
            <PhotoOrder photos={photos} onOrder={(order, announce) => void reorder(order, announce)} busy={ordering} />
          </section>
        )}
        <p className="visually-hidden" aria-live="polite" data-testid="photo-order-announcement">{announcement}</p>
        {photos.length === 0 ? (
          <p className="text-muted mb-0">{t('photos.none')}</p>
        ) : (
          <Row xs={2} sm={3} lg={2} xl={3} className="g-2">
            {photos.map((p) => (
              <Col key={p.id}>
                <div className="border rounded h-100 d-flex flex-column" data-testid="own-photo" data-status={p.status} data-main={p.is_main}>
                  <img src={`/photos/${p.thumb_filename}`} alt="" className="w-100 rounded-top own-photo-thumb" width={200} height={240} />
                  <div className="p-2 d-flex flex-column gap-1 small">
                    <div className="d-flex flex-wrap gap-1">
                      <Badge bg={STATUS_VARIANT[p.status]} text={p.status === 'pending' ? 'dark' : undefined} className="text-wrap text-start">{t(`photos.status_${p.status}`)}</Badge>
                      {p.is_main && <Badge bg="primary">{t('photos.main')}</Badge>}
                      {p.is_private && <Badge bg="dark">{t('photos.private')}</Badge>}
                    </div>
                    {!p.is_main && !p.is_private && p.status !== 'rejected' && (
                      <Button size="sm" variant="outline-primary" onClick={() => void run(() => api('/api/photos.php', { method: 'PUT', body: { id: p.id, main: true } }))}>
                        {t('photos.make_main')}
                      </Button>
                    )}
                    {premium && !p.is_main && (
                      <Button size="sm" variant="outline-secondary" onClick={() => void run(() => api('/api/photos.php', { method: 'PUT', body: { id: p.id, private: !p.is_private } }))}>
                        {p.is_private ? t('photos.make_public') : t('photos.make_private')}
                      </Button>
                    )}
                    <Button
                      size="sm" variant="outline-danger" data-testid="photo-delete"
                      onClick={() => { if (window.confirm(t('photos.delete_confirm'))) void run(() => api('/api/photos.php', { method: 'DELETE', body: { id: p.id } })); }}
                    >
                      {t('photos.delete')}
                    </Button>
                  </div>
                </div>
              </Col>
            ))}
          </Row>
        )}
      </Card.Body>
    </Card>
  );
}
