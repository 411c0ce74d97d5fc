import { Form, Link, useActionData, useLoaderData } from 'react-router';
import { MAIL_PARTS, mailTextFormSchema } from '#common/site-content.ts';
import { requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { consoleSiteId, orPageError } from '#server/http/console-content.server.ts';
import { formIntent, submitForm } from '#server/http/forms.server.ts';
import type { Route } from './+types/console-content-mail';
import { requestContext } from '../context.ts';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { ContentNav } from '../features/console/ContentNav.tsx';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.content.mails.title', noindex: true });
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  return orPageError(ctx.services.console.mailText(staff, consoleSiteId(ctx, request), params.lang, params.kind));
}

/** Saves the wording, or sends the mail as it now reads to the staff member's own address (`intent=test`). */
export async function action({ context, params, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const siteId = consoleSiteId(ctx, request);
  const formData = await request.formData();
  if (formIntent(formData) === 'test') {
    return { intent: 'test', sentTo: (await orPageError(ctx.services.console.sendTestMail(staff, siteId, params.lang, params.kind))).to };
  }
  return submitForm(ctx, formData, mailTextFormSchema, (values) =>
    orPageError(ctx.services.console.saveMailText(staff, siteId, params.lang, params.kind, values, { ip: ctx.clientAddress })));
}

/**
 * A mail's wording in one language: subject, text, button and note. An empty field keeps the translation (shown as
 * its placeholder); the placeholders the mail has are listed, and a text that drops one its translation uses is
 * refused beside its field. The link is always the mail's button.
 */
export default function ConsoleContentMail() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData() as { sentTo?: string } | undefined;
  const { form, fields, busy, done } = useAppForm(mailTextFormSchema, { defaultValue: loaded.values });
  const changed = (done as { changed?: string[] } | undefined)?.changed;
  const search = `?site=${loaded.site.id}`;
  return (
    <>
      <h1 className="h3 mb-3">{t('console.content.title_site', { site: loaded.site.name })}</h1>
      <ContentNav search={search} />
      <p className="mb-1"><Link to={`/console/content/mails${search}`}>{t('console.content.mails.title')}</Link></p>
      <h2 className="h4">{t('console.content.mails.heading', { mail: t(`console.content.mails.names.${loaded.kind}`), language: loaded.language })}</h2>
      {changed && <Alert variant="success" data-testid="mail-saved">{changed.length ? t('console.content.mails.saved') : t('console.content.unchanged')}</Alert>}
      {reply?.sentTo && <Alert variant="success" data-testid="mail-test-sent">{t('console.content.mails.test_sent', { email: reply.sentTo })}</Alert>}
      <p className="small">
        {t('console.content.mails.placeholders')} {loaded.placeholders.map((p) => <span key={p} className="font-monospace me-2">{`{{${p}}}`}</span>)}
      </p>
      <AppForm form={form} data-testid="mail-form" className="mb-3">
        <FormError form={form} />
        {MAIL_PARTS.map((part) => {
          const common = {
            id: `mail-${part}`, className: 'mb-3', label: t(`console.content.mails.parts.${part}`), field: fields[part],
            description: loaded.defaults[part] ? t('console.content.mails.default', { text: loaded.defaults[part] }) : undefined,
          };
          return part === 'intro' || part === 'note' ? <FormField key={part} as="textarea" rows={4} {...common} /> : <FormField key={part} {...common} />;
        })}
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="mail-save">{t('console.content.save')}</button>
      </AppForm>
      <Form method="post">
        <input type="hidden" name="intent" value="test" />
        <button type="submit" className="btn btn-outline-secondary btn-sm" data-testid="mail-test">{t('console.content.mails.test')}</button>
      </Form>
    </>
  );
}
