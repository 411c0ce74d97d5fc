import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Progress } from '../../components/Progress.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { ApiError } from '../../lib/api.ts';
import { uploadPhoto } from '../../lib/upload.ts';
import { StepHeading } from './StepHeading.tsx';

/** Step 1: a first photo, previewed before it goes, uploaded with its progress shown. */
export function PhotoStep({ onDone, skip }: { onDone: () => void; skip: React.ReactNode }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => () => { if (preview) URL.revokeObjectURL(preview); }, [preview]);
  const upload = async () => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      await uploadPhoto(file, { onProgress: setProgress, fallbackMessage: t('errors.server_error') });
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('errors.server_error'));
      setProgress(null);
    }
  };
  return (
    <div data-testid="signup-step-photo">
      <StepHeading title={t('signup_flow.photo_title')} lead={t('signup_flow.photo_lead')} />
      {preview && <img src={preview} alt="" className="rounded mb-3 d-block photo-preview" />}
      <FormField
        id="signup-photo" className="mb-3" label={t('signup_flow.photo_title')} labelClassName="visually-hidden"
        type="file" accept="image/jpeg,image/png,image/webp"
        onChange={(e) => {
          const f = e.target.files?.[0] ?? null;
          setFile(f);
          setPreview(f ? URL.createObjectURL(f) : null);
        }}
      />
      {progress !== null && <Progress className="mb-3" value={progress} aria-label={t('photos.uploading', { percent: progress })} data-testid="signup-photo-progress" />}
      {error && <Alert variant="danger" data-testid="signup-photo-error">{error}</Alert>}
      <div className="d-flex justify-content-between align-items-center">
        {skip}
        <Button onClick={upload} disabled={!file || progress !== null} data-testid="signup-photo-upload">{t('signup_flow.upload')}</Button>
      </div>
    </div>
  );
}
