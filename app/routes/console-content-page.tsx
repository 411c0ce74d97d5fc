import { Form, Link, useActionData, useLoaderData } from 'react-router';
import { pageTextFormSchema } from '#common/site-content.ts';
import { requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { consoleSiteId, orPageError } from '#server/http/console-content.server.ts';
import { formIntent, submitForm } from '#server/http/forms.server.ts';
import type { Route } from './+types/console-content-page';
import { requestContext } from '../context.ts';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { ContentNav } from '../features/console/ContentNav.tsx';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.content.pages.title', noindex: true });
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  return orPageError(ctx.services.console.pageText(staff, consoleSiteId(ctx, request), params.lang, params.page));
}

/** Saves the text (a new version), shows a preview of it (`intent=preview`, nothing stored) or drops it (`intent=reset`). */
export async function action({ context, params, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const siteId = consoleSiteId(ctx, request);
  const formData = await request.formData();
  const intent = formIntent(formData);
  if (intent === 'reset') {
    await orPageError(ctx.services.console.resetPageText(staff, siteId, params.lang, params.page, { ip: ctx.clientAddress }));
    return { intent, reset: true };
  }
  return submitForm(ctx, formData, pageTextFormSchema, async (values) => {
    if (intent === 'preview') return { preview: await orPageError(ctx.services.console.previewPageText(staff, siteId, params.lang, values)) };
    return { saved: await orPageError(ctx.services.console.savePageText(staff, siteId, params.lang, params.page, values, { ip: ctx.clientAddress })) };
  });
}

/**
 * A static page's text in one language: the site's own or, until it has one, the file's as the starting point. The
 * preview renders it as members will see it (the same markdown subset, sanitized); each save is a new version whose
 * date the terms show.
 */
export default function ConsoleContentPage() {
  const { t, i18n } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData() as { intent?: string; ok?: true; done?: { preview?: { title: string; html: string }; saved?: { changed: boolean; versionDate: string | null } }; reset?: boolean } | undefined;
  const { form, fields, busy } = useAppForm(pageTextFormSchema, { defaultValue: { markdown: loaded.markdown } });
  const preview = reply?.ok ? reply.done?.preview : undefined;
  const saved = reply?.ok ? reply.done?.saved : undefined;
  const search = `?site=${loaded.site.id}`;
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso));
  const name = t(`console.content.pages.names.${loaded.page}`);
  return (
    <>
      <h1 className="h3 mb-3">{t('console.content.title_site', { site: loaded.site.name })}</h1>
      <ContentNav search={search} />
      <p className="mb-1"><Link to={`/console/content/pages${search}`}>{t('console.content.pages.title')}</Link></p>
      <h2 className="h4">{t('console.content.pages.heading', { page: name, language: loaded.language })}</h2>
      <p className="small" data-testid="page-version">
        {loaded.own && loaded.versionDate ? t('console.content.pages.version', { date: date(loaded.versionDate) }) : t('console.content.pages.from_file')}
      </p>
      {saved && <Alert variant="success" data-testid="page-saved">{saved.changed ? t('console.content.pages.saved', { date: date(saved.versionDate!) }) : t('console.content.unchanged')}</Alert>}
      {reply?.reset && <Alert variant="success" data-testid="page-reset">{t('console.content.pages.reset_done')}</Alert>}
      <div className="row g-4">
        <div className="col-12 col-lg-6">
          <AppForm form={form} data-testid="page-form">
            <FormError form={form} />
            <FormField id="page-markdown" as="textarea" rows={22} className="mb-3" controlClassName="font-monospace" label={t('console.content.pages.markdown')} field={fields.markdown} description={t('console.content.pages.help')} />
            <div className="d-flex flex-wrap gap-2">
              <button type="submit" name="intent" value="preview" className="btn btn-outline-secondary" disabled={busy} data-testid="page-preview-button">{t('console.content.preview')}</button>
              <button type="submit" className="btn btn-primary" disabled={busy} data-testid="page-save">{t('console.content.save')}</button>
            </div>
          </AppForm>
          {loaded.own && (
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="reset" />
              <button type="submit" className="btn btn-outline-danger btn-sm" data-testid="page-reset-button">{t('console.content.pages.reset')}</button>
            </Form>
          )}
        </div>
        <div className="col-12 col-lg-6">
          <h3 className="h5">{t('console.content.preview')}</h3>
          {preview ? (
            <article className="border rounded p-3" data-testid="page-preview">
              <h1 className="h3">{preview.title}</h1>
              {/* Rendered by the server's markdown subset: escaped text, safe links only, no raw HTML. */}
              <div dangerouslySetInnerHTML={{ __html: preview.html }} />
            </article>
          ) : <p className="text-body-secondary">{t('console.content.pages.preview_hint')}</p>}
        </div>
      </div>
    </>
  );
}
