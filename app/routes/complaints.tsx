import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import type { Route } from './+types/complaints';
import { toId } from '#common/ids.ts';
import { NOTICE_EXPLANATION_MAX, NOTICE_KINDS, NOTICE_LOCATION_MAX, NOTICE_REASONS, noticeSchema, type NoticeKind } from '#common/notices.ts';
import { requestContext } from '../context.ts';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { pageMeta } from '../lib/seo.ts';
import { orNotFound } from '#server/http/page-guards.server.ts';
import { submitForm } from '#server/http/forms.server.ts';
import '../features/content/static-page.scss';

/**
 * Deep links prefill what is reported: `/complaints?kind=profile&id=123` (a profile page, a chat
 * message). A signed-in member reports under their own name and address.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const kind = url.searchParams.get('kind') ?? '';
  const id = toId(url.searchParams.get('id'));
  const user = await ctx.user();
  return {
    page: await orNotFound(ctx.services.content.sitePage(ctx.actor, { slug: 'complaints', language: ctx.lang, requestCountry: ctx.geoipCountry })),
    prefill: (NOTICE_KINDS as readonly string[]).includes(kind) && kind !== 'other' && id !== null ? { kind: kind as NoticeKind, content: String(id) } : null,
    member: user ? { name: user.profile.name, email: user.email } : null,
  };
}

/** The notice goes to the same use case an operator's console reads; its reference comes back here and by mail. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  return submitForm(ctx, await request.formData(), noticeSchema, (input) =>
    ctx.services.notices.submit({ siteId: ctx.site.id, userId: ctx.userId, ip: ctx.clientIp, lang: ctx.lang }, input));
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'complaints.title' });
}

/** Notice and action (EU DSA Art. 16): report a profile, photo, message or other content; below it, the complaints procedure. */
export default function Complaints({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { page, prefill, member } = loaderData;
  const { form, fields, busy, done } = useAppForm(noticeSchema, {
    defaultValue: { kind: prefill?.kind ?? '', content: prefill?.content ?? '', name: member?.name ?? '', email: member?.email ?? '' },
  });
  const sent = done as { reference: string; email: string } | undefined;
  return (
    <div className="container py-4 max-w-860" data-page="complaints">
      <h1 className="h2 mb-3">{t('complaints.title')}</h1>
      <p>{t('complaints.intro')}</p>
      {sent ? (
        <Alert variant="success" data-testid="notice-sent">
          <Alert.Heading as="h2" className="h5">{t('complaints.sent_title')}</Alert.Heading>
          <p className="mb-1">{t('complaints.sent_reference')} <strong className="font-monospace" data-testid="notice-reference">{sent.reference}</strong></p>
          <p className="mb-0">{t('complaints.sent_mail', { email: sent.email })}</p>
        </Alert>
      ) : (
        <Card className="shadow-sm mb-4"><Card.Body className="p-3 p-md-4">
          <FormError form={form} testId="notice-error" />
          <AppForm form={form} data-testid="notice-form">
            <div className="row g-3">
              <FormField id="notice-kind" as="select" className="col-md-5" label={t('complaints.kind')} field={fields.kind} required data-testid="notice-kind">
                <option value="">{t('complaints.choose')}</option>
                {NOTICE_KINDS.map((k) => <option key={k} value={k}>{t(`complaints.kinds.${k}`)}</option>)}
              </FormField>
              <FormField
                id="notice-content" className="col-md-7" label={t('complaints.content')} field={fields.content} errorTestId="notice-content-error"
                description={t('complaints.content_help')} required maxLength={NOTICE_LOCATION_MAX} data-testid="notice-content"
              />
              <FormField
                id="notice-reason" as="select" className="col-12" label={t('complaints.reason')} field={fields.reason} errorTestId="notice-reason-error"
                required data-testid="notice-reason"
              >
                <option value="">{t('complaints.choose')}</option>
                {NOTICE_REASONS.map((r) => <option key={r} value={r}>{t(`complaints.reasons.${r}`)}</option>)}
              </FormField>
              <FormField
                id="notice-explanation" as="textarea" className="col-12" label={t('complaints.explanation')} field={fields.explanation}
                errorTestId="notice-explanation-error" description={t('complaints.explanation_help')}
                rows={5} maxLength={NOTICE_EXPLANATION_MAX} data-testid="notice-explanation"
              />
              <FormField
                id="notice-name" className="col-md-6" label={t('complaints.name')} field={fields.name} errorTestId="notice-name-error"
                autoComplete="name" maxLength={100} data-testid="notice-name"
              />
              <FormField
                id="notice-email" className="col-md-6" label={t('fields.email')} field={fields.email} errorTestId="notice-email-error"
                description={member && t('complaints.email_member')} required
                type="email" autoComplete="email" readOnly={Boolean(member)} data-testid="notice-email"
              />
              <div className="col-12">
                <FormField
                  id="notice-bona-fide" as="checkbox" label={t('complaints.bona_fide')} field={fields.bona_fide} errorTestId="notice-bona-fide-error"
                  required data-testid="notice-bona-fide"
                />
              </div>
              <div className="col-12">
                <Button type="submit" disabled={busy} data-testid="notice-submit">{t('complaints.submit')}</Button>
                <p className="small text-muted mt-2 mb-0">{t('complaints.privacy')}</p>
              </div>
            </div>
          </AppForm>
        </Card.Body></Card>
      )}
      <section className="static-page mt-5" aria-labelledby="complaints-procedure">
        <h2 className="h3" id="complaints-procedure">{page.title}</h2>
        {/* Rendered from the project's own markdown by a renderer that escapes all text. */}
        <div dangerouslySetInnerHTML={{ __html: page.html }} />
      </section>
    </div>
  );
}
