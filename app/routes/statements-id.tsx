import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { data, Link } from 'react-router';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import type { Route } from './+types/statements-id';
import { toId } from '#common/ids.ts';
import type { Language } from '#common/languages.ts';
import { APPEAL_TEXT_MAX, appealSchema, type StatementView } from '#common/reports.ts';
import { requestContext } from '../context.ts';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { formatDateTime } from '../lib/format.ts';
import { pageMeta } from '../lib/seo.ts';
import { orNotFound } from '#server/http/page-guards.server.ts';
import { submitForm } from '#server/http/forms.server.ts';

/**
 * A statement of reasons (DSA Art. 17) and its appeal (Art. 20): for the member it concerns, signed in, or through the
 * mailed link's token (a banned member cannot sign in); anyone else gets "not found".
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const id = toId(params.id);
  if (id === null) throw data(null, { status: 404 });
  return { statement: await orNotFound(ctx.services.statements.view(ctx.actor, id, url.searchParams.get('token') ?? undefined)) };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const id = toId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const token = new URL(request.url).searchParams.get('token') ?? undefined;
  return submitForm(ctx, await request.formData(), appealSchema,
    (input) => orNotFound(ctx.services.statements.appeal(ctx.actor, id, token, input)), { limits: ctx.services.rateLimits.links });
}

/** The page speaks of one member and its address carries their link's token: no cache keeps it. */
export function headers(): HeadersInit {
  return { 'Cache-Control': 'private, no-store' };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'statements.title', noindex: true });
}

function Appeal({ statement: s }: { statement: StatementView }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { form, fields, busy } = useAppForm(appealSchema, { defaultValue: { text: '' } });
  if (s.appeal) {
    const state = s.appeal.status === 'open' ? 'open' : s.appeal.outcome ?? 'open';
    return (
      <div data-testid="appeal-state" data-state={state}>
        <p className="mb-1 fw-semibold">{t('statements.appeal_yours', { date: formatDateTime(s.appeal.created_at, lang) })}</p>
        <blockquote className="border-start ps-3 text-pre-wrap">{s.appeal.text}</blockquote>
        <Alert variant={state === 'reversed' ? 'success' : 'info'} className="mb-0">{t(`statements.appeal_statuses.${state}`)}</Alert>
      </div>
    );
  }
  if (!s.can_appeal) {
    return s.status === 'reversed' ? null : <p data-testid="appeal-closed">{t('statements.appeal_closed', { date: formatDateTime(s.appeal_until, lang) })}</p>;
  }
  return (
    <>
      <p>{t('statements.appeal_intro', { date: formatDateTime(s.appeal_until, lang) })}</p>
      <AppForm form={form} data-testid="appeal-form">
        <FormError form={form} testId="appeal-error" />
        <FormField
          id="appeal-text" as="textarea" rows={5} className="mb-3" label={t('statements.appeal_label')} field={fields.text} required
          maxLength={APPEAL_TEXT_MAX} errorTestId="appeal-text-error" data-testid="appeal-text"
        />
        <Button type="submit" disabled={busy} data-testid="appeal-submit">{t('statements.appeal_submit')}</Button>
      </AppForm>
    </>
  );
}

export default function Statement({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { statement: s } = loaderData;
  return (
    <div className="container py-4 max-w-720" data-page="statement">
      <h1 className="h3 mb-2">{t('statements.title')}</h1>
      <p className="text-muted">{t('statements.intro')}</p>
      <Card className="shadow-sm mb-4"><Card.Body className="p-3 p-md-4">
        <dl className="row mb-0">
          <dt className="col-sm-4">{t('statements.what')}</dt>
          <dd className="col-sm-8" data-testid="statement-restriction" data-restriction={s.restriction}>
            {t(`statements.restrictions.${s.restriction}`)}
            {s.suspended_until && <div className="small">{t('statements.until', { date: formatDateTime(s.suspended_until, lang) })}</div>}
          </dd>
          <dt className="col-sm-4">{t('statements.concerning')}</dt>
          <dd className="col-sm-8">{t(`statements.contents.${s.content.kind}`)}</dd>
          <dt className="col-sm-4">{t('statements.facts')}</dt>
          <dd className="col-sm-8 text-pre-wrap" data-testid="statement-facts">{s.facts || t('statements.facts_default')}</dd>
          <dt className="col-sm-4">{t('statements.ground')}</dt>
          <dd className="col-sm-8" data-testid="statement-ground" data-ground={s.ground}>
            <span className="fw-semibold">{t(`statements.bases.${s.basis}`)}:</span> {t(`statements.grounds.${s.ground}`)}
            {s.basis === 'terms' && <div className="small"><Link to="/pages/terms">{t('statements.read_terms')}</Link></div>}
          </dd>
          <dt className="col-sm-4">{t('statements.automated')}</dt>
          <dd className="col-sm-8" data-testid="statement-automated">{s.automated ? t('statements.automated_yes') : t('statements.automated_no')}</dd>
          <dt className="col-sm-4">{t('statements.source')}</dt>
          <dd className="col-sm-8">{t(`statements.sources.${s.source}`)}</dd>
          <dt className="col-sm-4">{t('statements.decided_on')}</dt>
          <dd className="col-sm-8">{formatDateTime(s.created_at, lang)}</dd>
          <dt className="col-sm-4">{t('statements.status')}</dt>
          <dd className="col-sm-8">
            <Badge bg={s.status === 'reversed' ? 'success' : 'secondary'} data-testid="statement-status" data-status={s.status}>{t(`statements.statuses.${s.status}`)}</Badge>
          </dd>
        </dl>
      </Card.Body></Card>
      <h2 className="h5">{t('statements.appeal_title')}</h2>
      <Appeal statement={s} />
      <p className="small text-muted mt-3">{t('statements.other_options')}</p>
    </div>
  );
}
