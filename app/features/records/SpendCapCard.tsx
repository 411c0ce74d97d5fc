import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Progress } from '../../components/Progress.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import type { SpendCap } from '#common/api-types.ts';
import { SPEND_CAP_MAX, type SpendCapPeriod } from '#common/constants.ts';
import type { Language } from '#common/languages.ts';
import { isStricter, type Cap } from '#common/spend-cap.ts';
import { api, ApiError } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useTimeZone } from '../../lib/time-zone.ts';

type Choice = 'none' | SpendCapPeriod;

/**
 * The member's own spend cap: credits per day or per month. A stricter cap applies at once; a raise or a
 * removal waits for the cooling-off period, and the member is told so before it is saved.
 */
export function SpendCapCard({ initial }: { initial: SpendCap }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const [cap, setCap] = useState(initial);
  const [choice, setChoice] = useState<Choice>(initial.period ?? 'none');
  const [credits, setCredits] = useState(String(initial.credits ?? 100));
  const [confirming, setConfirming] = useState<Cap | null | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const current: Cap | null = cap.period && cap.credits ? { period: cap.period, credits: cap.credits } : null;
  const zone = useTimeZone();
  const when = (iso: string) => formatDateTime(iso, lang, zone);

  const save = async (next: Cap | null) => {
    setConfirming(undefined);
    setSaving(true);
    setError(null);
    setNotice(null);
    try {
      const result = await api<SpendCap & { applied: 'now' | 'later' }>('/api/spend-cap.php', { method: 'PUT', body: next ?? { credits: null } });
      setCap(result);
      setNotice(result.applied === 'now' ? t('spend_cap.applied_now') : t('spend_cap.applied_later', { date: when(result.pending?.from ?? '') }));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
    } finally {
      setSaving(false);
    }
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const amount = Number(credits);
    if (choice !== 'none' && (!Number.isInteger(amount) || amount < 1 || amount > SPEND_CAP_MAX)) {
      setError(t('errors.spend_cap_invalid'));
      return;
    }
    const next = choice === 'none' ? null : { period: choice, credits: amount };
    // A raise or a removal only takes effect after the cooling-off period: ask first.
    if (!isStricter(next, current)) setConfirming(next);
    else void save(next);
  };

  const used = current ? Math.min(100, Math.round((cap.spent / current.credits) * 100)) : 0;
  return (
    <Card className="shadow-sm" data-testid="spend-cap">
      <Card.Body>
        <Card.Title as="h2" className="h5">{t('spend_cap.title')}</Card.Title>
        <p className="text-muted small">{t('spend_cap.explanation', { hours: cap.cooling_off_hours })}</p>
        {current ? (
          <div className="mb-3" data-testid="spend-cap-current">
            <div className="d-flex justify-content-between small mb-1">
              <span>{t(`spend_cap.current_${current.period}`, { count: current.credits })}</span>
              <span>{t('spend_cap.spent', { spent: cap.spent, cap: current.credits })}</span>
            </div>
            <Progress value={used} tone={used >= 100 ? 'danger' : used >= 80 ? 'warning' : 'primary'} aria-label={t('spend_cap.spent', { spent: cap.spent, cap: current.credits })} />
          </div>
        ) : <p className="mb-3" data-testid="spend-cap-current">{t('spend_cap.none')}</p>}
        {cap.pending && (
          <Alert variant="info" className="small" data-testid="spend-cap-pending">
            {cap.pending.credits && cap.pending.period
              ? t(`spend_cap.pending_${cap.pending.period}`, { count: cap.pending.credits, date: when(cap.pending.from) })
              : t('spend_cap.pending_removal', { date: when(cap.pending.from) })}
          </Alert>
        )}
        {notice && <Alert variant="success" className="small" data-testid="spend-cap-saved">{notice}</Alert>}
        {error && <Alert variant="danger" className="small" data-testid="spend-cap-error">{error}</Alert>}
        <Form onSubmit={submit} className="row g-2 align-items-end">
          <FormField
            id="spend-cap-period" as="select" className="col-12 col-sm-5" label={t('spend_cap.period')} labelClassName="small"
            value={choice} onChange={(e) => setChoice(e.target.value as Choice)} data-testid="spend-cap-period"
          >
            <option value="none">{t('spend_cap.period_none')}</option>
            <option value="day">{t('spend_cap.period_day')}</option>
            <option value="month">{t('spend_cap.period_month')}</option>
          </FormField>
          <FormField
            id="spend-cap-credits" className="col-7 col-sm-4" label={t('spend_cap.credits')} labelClassName="small"
            type="number" inputMode="numeric" min={1} max={SPEND_CAP_MAX} step={1} value={credits} disabled={choice === 'none'}
            onChange={(e) => setCredits(e.target.value)} data-testid="spend-cap-credits"
          />
          <div className="col-5 col-sm-3 d-grid">
            <Button type="submit" disabled={saving} data-testid="spend-cap-save">{t('spend_cap.save')}</Button>
          </div>
        </Form>
      </Card.Body>
      <Modal show={confirming !== undefined} onHide={() => setConfirming(undefined)} centered aria-labelledby="spend-cap-confirm-title" data-testid="spend-cap-confirm">
        <Modal.Header closeButton closeLabel={t('spend_cap.keep')}>
          <Modal.Title id="spend-cap-confirm-title" as="h2" className="h5">{confirming === null ? t('spend_cap.confirm_remove_title') : t('spend_cap.confirm_raise_title')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>{t('spend_cap.confirm_body', { hours: cap.cooling_off_hours })}</p>
          <p className="mb-0 small text-muted">{t('spend_cap.confirm_why')}</p>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirming(undefined)} data-testid="spend-cap-keep">{t('spend_cap.keep')}</Button>
          <Button variant="primary" onClick={() => void save(confirming ?? null)} data-testid="spend-cap-confirm-button">{t('spend_cap.confirm')}</Button>
        </Modal.Footer>
      </Modal>
    </Card>
  );
}
