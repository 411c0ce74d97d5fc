import { Form, Link, redirect, useLoaderData } from 'react-router';
import { pageTokenFormSchema } from '#common/site-content.ts';
import { TRACKING_KEYS } from '#common/tracking.ts';
import { requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { consoleSiteId, orPageError } from '#server/http/console-content.server.ts';
import { formIntent, submitForm } from '#server/http/forms.server.ts';
import type { Route } from './+types/console-content';
import { requestContext } from '../context.ts';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { ContentNav } from '../features/console/ContentNav.tsx';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.content.tokens.title', noindex: true });
}

/** A site's short paths (`?site=`, else this one), the one being edited (`?edit=`), and the landers with a preview. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const siteId = consoleSiteId(ctx, request);
  const list = await orPageError(ctx.services.console.tokenList(staff, siteId));
  const edit = new URL(request.url).searchParams.get('edit');
  const editing = edit === null ? null : await orPageError(ctx.services.console.token(staff, siteId, edit));
  return { ...list, editing, saved: new URL(request.url).searchParams.get('saved') };
}

/** Adds or changes a short path (the form), or removes one (`intent=delete`). */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const siteId = consoleSiteId(ctx, request);
  const from = { ip: ctx.clientAddress };
  const formData = await request.formData();
  const url = new URL(request.url);
  const search = url.searchParams.has('site') ? `?site=${siteId}` : '';
  if (formIntent(formData) === 'delete') {
    await orPageError(ctx.services.console.deleteToken(staff, siteId, String(formData.get('token') ?? '')));
    return redirect(`/console/content${search}`);
  }
  const original = url.searchParams.get('edit');
  return submitForm(ctx, formData, pageTokenFormSchema, async (values) => {
    await orPageError(ctx.services.console.saveToken(staff, siteId, original, values, from));
    return redirect(`/console/content${search}${search ? '&' : '?'}saved=${encodeURIComponent(values.path)}`);
  });
}

/** "Lander: gallery" or "Page: Frequently Asked Questions". */
function useTargetLabel() {
  const { t } = useTranslation();
  return (target: string) => {
    const [kind, name] = target.split(':');
    return kind === 'lander' ? t('console.content.tokens.lander', { name }) : t('console.content.tokens.page', { name: t(`console.content.pages.names.${name}`) });
  };
}

/** A new short path's form, or the one being edited; a fresh form after each save. */
function TokenForm() {
  const { t } = useTranslation();
  const { site, landers, pages, editing } = useLoaderData<typeof loader>();
  const search = `?site=${site.id}`;
  const targetLabel = useTargetLabel();
  const defaultValue = editing ? { path: editing.token, target: editing.target, slug: editing.slug, ...editing.tracking } : { target: 'lander:gallery' };
  const { form, fields, busy } = useAppForm(pageTokenFormSchema, { defaultValue });
  return (
    <section className="card" aria-labelledby="token-form-title">
      <div className="card-body">
        <h2 id="token-form-title" className="h5 card-title">{editing ? t('console.content.tokens.edit_title', { token: editing.token }) : t('console.content.tokens.new')}</h2>
        <AppForm form={form} data-testid="token-form">
          <FormError form={form} />
          <FormField id="token-path" className="mb-3" label={t('console.content.tokens.fields.path')} field={fields.path} description={t('console.content.tokens.help.path')} />
          <FormField id="token-target" as="select" className="mb-3" label={t('console.content.tokens.fields.target')} field={fields.target}>
            <optgroup label={t('console.content.landers.title')}>
              {landers.map((l) => <option key={l.name} value={`lander:${l.name}`}>{targetLabel(`lander:${l.name}`)}</option>)}
            </optgroup>
            <optgroup label={t('console.content.pages.title')}>
              {pages.map((p) => <option key={p} value={`page:${p}`}>{targetLabel(`page:${p}`)}</option>)}
            </optgroup>
          </FormField>
          <FormField id="token-slug" className="mb-3" label={t('console.content.tokens.fields.slug')} field={fields.slug} description={t('console.content.tokens.help.slug')} />
          {TRACKING_KEYS.map((key) => (
            <FormField key={key} id={`token-${key}`} className="mb-2" label={key} field={fields[key]} />
          ))}
          <button type="submit" className="btn btn-primary mt-2" disabled={busy} data-testid="token-save">
            {editing ? t('console.content.save') : t('console.content.tokens.add')}
          </button>
          {editing && <Link to={`/console/content${search}`} className="btn btn-link mt-2">{t('console.content.cancel')}</Link>}
        </AppForm>
      </div>
    </section>
  );
}

export default function ConsoleContent() {
  const { t } = useTranslation();
  const { site, tokens, landers, editing, saved } = useLoaderData<typeof loader>();
  const search = `?site=${site.id}`;
  const targetLabel = useTargetLabel();

  return (
    <>
      <h1 className="h3 mb-3">{t('console.content.title_site', { site: site.name })}</h1>
      <ContentNav search={search} />
      {saved && <Alert variant="success" data-testid="token-saved">{t('console.content.tokens.saved', { token: saved })}</Alert>}
      <div className="row g-4">
        <div className="col-12 col-lg-7">
          <h2 className="h5">{t('console.content.tokens.list')}</h2>
          {tokens.length === 0 ? <p>{t('console.content.tokens.none')}</p> : (
            <table className="table table-sm align-middle" data-testid="console-tokens">
              <thead>
                <tr>
                  <th scope="col">{t('console.content.tokens.fields.path')}</th>
                  <th scope="col">{t('console.content.tokens.fields.target')}</th>
                  <th scope="col">{t('console.content.tokens.tracking')}</th>
                  <th scope="col"><span className="visually-hidden">{t('console.content.tokens.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.token} data-token={token.token}>
                    <th scope="row" className="fw-normal"><a href={`${site.origin}/${token.token}`}>/{token.token}</a></th>
                    <td>{targetLabel(token.target)}{token.slug ? ` / ${token.slug}` : ''}</td>
                    <td className="small">{TRACKING_KEYS.filter((k) => token.tracking[k]).map((k) => `${k}=${token.tracking[k]}`).join(' · ')}</td>
                    <td className="text-end text-nowrap">
                      <Link to={`/console/content${search}&edit=${token.token}`} className="btn btn-outline-secondary btn-sm me-1">{t('console.content.tokens.edit')}</Link>
                      <Form method="post" className="d-inline">
                        <input type="hidden" name="intent" value="delete" />
                        <input type="hidden" name="token" value={token.token} />
                        <button type="submit" className="btn btn-outline-danger btn-sm" data-testid={`token-delete-${token.token}`}>{t('console.content.tokens.delete')}</button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2 className="h5 mt-4">{t('console.content.landers.title')}</h2>
          <ul className="list-inline" data-testid="console-landers">
            {landers.map((l) => (
              <li key={l.name} className="list-inline-item mb-2">
                <a href={l.preview} target="_blank" rel="noreferrer" className="btn btn-outline-secondary btn-sm">{t('console.content.landers.preview', { name: l.name })}</a>
              </li>
            ))}
          </ul>
        </div>
        <div className="col-12 col-lg-5">
          <TokenForm key={saved ?? editing?.token ?? 'new'} />
        </div>
      </div>
    </>
  );
}
