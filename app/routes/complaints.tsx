import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import type { Route } from './+types/complaints';
import { toId } from '#common/ids.ts';
import { NOTICE_EXPLANATION_MAX, NOTICE_KINDS, NOTICE_LOCATION_MAX, NOTICE_REASONS, noticeSchema, type NoticeKind } from '#common/notices.ts';
import { requestContext } from '../context.ts';
import { AppForm, FieldError, FormError, fieldProps, useAppForm } from '../lib/forms.tsx';
import { pageMeta } from '../lib/seo.ts';
import { staticPage } from '#server/content/content-pages.server.ts';
import { submitForm } from '#server/http/forms.server.ts';

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
    page: await staticPage(ctx, '/complaints'),
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
    <div className="container py-4" style={{ maxWidth: 860 }} data-page="complaints">
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
              <Form.Group className="col-md-5" controlId="notice-kind">
                <Form.Label>{t('complaints.kind')}</Form.Label>
                <Form.Select {...fieldProps(fields.kind)} data-testid="notice-kind">
                  <option value="">{t('complaints.choose')}</option>
                  {NOTICE_KINDS.map((k) => <option key={k} value={k}>{t(`complaints.kinds.${k}`)}</option>)}
                </Form.Select>
                <FieldError field={fields.kind} />
              </Form.Group>
              <Form.Group className="col-md-7" controlId="notice-content">
                <Form.Label>{t('complaints.content')}</Form.Label>
                <Form.Control
                  {...fieldProps(fields.content)} maxLength={NOTICE_LOCATION_MAX} data-testid="notice-content"
                  aria-describedby={['notice-content-help', fields.content.errors?.length ? fields.content.errorId : ''].join(' ').trim()}
                />
                <Form.Text id="notice-content-help">{t('complaints.content_help')}</Form.Text>
                <FieldError field={fields.content} testId="notice-content-error" />
              </Form.Group>
              <Form.Group className="col-12" controlId="notice-reason">
                <Form.Label>{t('complaints.reason')}</Form.Label>
                <Form.Select {...fieldProps(fields.reason)} data-testid="notice-reason">
                  <option value="">{t('complaints.choose')}</option>
                  {NOTICE_REASONS.map((r) => <option key={r} value={r}>{t(`complaints.reasons.${r}`)}</option>)}
                </Form.Select>
                <FieldError field={fields.reason} testId="notice-reason-error" />
              </Form.Group>
              <Form.Group className="col-12" controlId="notice-explanation">
                <Form.Label>{t('complaints.explanation')}</Form.Label>
                <Form.Control as="textarea" rows={5} {...fieldProps(fields.explanation)} maxLength={NOTICE_EXPLANATION_MAX} data-testid="notice-explanation" />
                <Form.Text>{t('complaints.explanation_help')}</Form.Text>
                <FieldError field={fields.explanation} testId="notice-explanation-error" />
              </Form.Group>
              <Form.Group className="col-md-6" controlId="notice-name">
                <Form.Label>{t('complaints.name')}</Form.Label>
                <Form.Control {...fieldProps(fields.name)} autoComplete="name" maxLength={100} data-testid="notice-name" />
                <FieldError field={fields.name} testId="notice-name-error" />
              </Form.Group>
              <Form.Group className="col-md-6" controlId="notice-email">
                <Form.Label>{t('fields.email')}</Form.Label>
                <Form.Control {...fieldProps(fields.email)} type="email" autoComplete="email" readOnly={Boolean(member)} data-testid="notice-email" />
                {member && <Form.Text>{t('complaints.email_member')}</Form.Text>}
                <FieldError field={fields.email} testId="notice-email-error" />
              </Form.Group>
              <Form.Group className="col-12">
                <Form.Check id="notice-bona-fide">
                  <Form.Check.Input
                    type="checkbox" name={fields.bona_fide.name} value="on" defaultChecked={fields.bona_fide.initialValue === 'on'}
                    isInvalid={Boolean(fields.bona_fide.errors?.length)} aria-describedby={fields.bona_fide.errors?.length ? fields.bona_fide.errorId : undefined}
                    data-testid="notice-bona-fide"
                  />
                  <Form.Check.Label>{t('complaints.bona_fide')}</Form.Check.Label>
                  <FieldError field={fields.bona_fide} testId="notice-bona-fide-error" />
                </Form.Check>
              </Form.Group>
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
