import Button from 'react-bootstrap/Button';
import { Link, type FetcherWithComponents } from 'react-router';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { AppForm, FormError, useAppForm } from '../../lib/forms.tsx';
import { REPORT_REASONS, REPORT_TEXT_MAX, reportSchema } from '#common/reports.ts';
import type { ReportTarget } from './report-target.ts';


/** What the report action answers on success (server: reports.report). */
export interface ReportDone { existing: boolean; blocked: boolean }

/**
 * The report form (reason, optional text, "also block"): posted to the /report page's action, through `fetcher` in the
 * sheet or as a plain form on the page without JavaScript. After sending it says what happened.
 */
export function ReportForm({ target, fetcher, onClose }: { target: ReportTarget; fetcher?: FetcherWithComponents<unknown>; onClose?: () => void }) {
  const { t } = useTranslation();
  const { form, fields, busy, done } = useAppForm(reportSchema, { fetcher, defaultValue: { reason: '', text: '' } });
  const sent = done as ReportDone | undefined;
  const id = (name: string) => `report-${target.kind}-${name}`;
  if (sent) {
    return (
      <div data-testid="report-done">
        <Alert variant="success" className="mb-3">
          <Alert.Heading as="h3" className="h6">{sent.existing ? t('reports.done_existing') : t('reports.done_title')}</Alert.Heading>
          <p className="mb-0">{t('reports.done_text')}</p>
          {sent.blocked && <p className="mb-0 mt-1" data-testid="report-blocked">{t('reports.done_blocked', { name: target.name })}</p>}
        </Alert>
        <div className="d-flex flex-wrap gap-2">
          <Link to="/reports" className="btn btn-outline-primary" data-testid="report-my-reports">{t('reports.my_title')}</Link>
          {onClose && <Button variant="primary" onClick={onClose} data-testid="report-close">{t('reports.close')}</Button>}
        </div>
      </div>
    );
  }
  return (
    <AppForm form={form} fetcher={fetcher} action={fetcher ? '/report' : undefined} data-testid="report-form">
      <FormError form={form} testId="report-error" />
      <input type="hidden" name="profile_id" value={target.profileId} />
      <input type="hidden" name="kind" value={target.kind} />
      {target.contentId ? <input type="hidden" name="content_id" value={target.contentId} /> : null}
      <FormField id={id('reason')} as="select" className="mb-3" label={t('reports.reason')} field={fields.reason} required data-testid="report-reason">
        <option value="">{t('complaints.choose')}</option>
        {REPORT_REASONS.map((r) => <option key={r} value={r}>{t(`reports.reasons.${r}`)}</option>)}
      </FormField>
      <FormField
        id={id('text')} as="textarea" className="mb-3" rows={3} label={t('reports.text')} field={fields.text} maxLength={REPORT_TEXT_MAX}
        description={t('reports.text_help')} data-testid="report-text"
      />
      <FormField
        id={id('block')} as="checkbox" className="mb-3" label={t('reports.block', { name: target.name })} field={fields.block}
        description={t('reports.block_help', { name: target.name })} descriptionProps={{ as: 'div' }} data-testid="report-block"
      />
      <p className="small text-muted">
        <Link to={`/complaints?kind=${target.kind}&id=${target.kind === 'profile' ? target.profileId : target.contentId ?? ''}`}>{t('reports.formal_notice')}</Link>
      </p>
      <div className="d-flex flex-wrap gap-2 justify-content-end">
        {onClose && <Button variant="outline-secondary" onClick={onClose}>{t('reports.cancel')}</Button>}
        <Button type="submit" variant="danger" disabled={busy} data-testid="report-submit">{t('reports.submit')}</Button>
      </div>
    </AppForm>
  );
}
