import { data, Form, Link, useLoaderData, useNavigation } from 'react-router';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-members';
import { requestContext } from '../context.ts';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.members.title', noindex: true });
}

/**
 * Member support's search: by id, e-mail, name or payment reference, in the query string (a GET form), 50 a page,
 * newest or oldest first. Each search is audited.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const search = new URL(request.url).searchParams;
  const q = search.get('q')?.trim() ?? '';
  const page = /^\d{1,3}$/.test(search.get('page') ?? '') ? Number(search.get('page')) : 1;
  const order = search.get('order') === 'oldest' ? 'oldest' as const : 'newest' as const;
  // The page is support's, as its use case is: other staff get a 403 before they search.
  if (!staff.roles.some((role) => role === 'support' || role === 'admin')) throw data(null, { status: 403 });
  const none = { q, page, order, members: [], hasMore: false };
  if (!q) return { ...none, error: null };
  try {
    const found = await orForbidden(ctx.services.console.findMembers(staff, { query: q, page, order }, { ip: ctx.clientAddress }));
    return { ...none, ...found, error: null };
  } catch (error) {
    return { ...none, error: consoleErrorText(ctx, await consoleLanguage(ctx), error, []).message };
  }
}

export default function ConsoleMembers() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { q, page, order, members, hasMore, error } = useLoaderData<typeof loader>();
  const pageLink = (to: number) => `?${new URLSearchParams({ q, order, page: String(to) })}`;
  const busy = useNavigation().state !== 'idle';
  return (
    <>
      <h1 className="h3">{t('console.members.title')}</h1>
      <Form method="get" role="search" className="row g-2 align-items-end mb-3" data-testid="member-search">
        <FormField id="member-q" name="q" className="col-12 col-md-6" label={t('console.members.query')} defaultValue={q} maxLength={200} aria-describedby="member-q-help" autoComplete="off" />
        <FormField as="select" id="member-order" name="order" className="col-auto" label={t('console.audit.sort')} defaultValue={order}>
          <option value="newest">{t('console.audit.newest')}</option>
          <option value="oldest">{t('console.audit.oldest')}</option>
        </FormField>
        <div className="col-auto">
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="member-search-submit">{t('console.members.search')}</button>
        </div>
        <p className="form-text col-12 mb-0" id="member-q-help">{t('console.members.query_help')}</p>
      </Form>
      {error && <div className="alert alert-danger" role="alert">{error}</div>}
      {q && !error && <p role="status" data-testid="member-search-total">{t('console.members.found', { count: members.length })}</p>}
      {members.length > 0 && (
        <div className="table-responsive">
          <table className="table table-sm table-striped align-middle" data-testid="member-results">
            <caption className="visually-hidden">{t('console.members.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('console.members.id')}</th>
                <th scope="col">{t('console.members.name')}</th>
                <th scope="col">{t('console.members.email')}</th>
                <th scope="col">{t('console.members.site')}</th>
                <th scope="col">{t('console.members.status')}</th>
                <th scope="col">{t('console.members.signed_up')}</th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.id} data-testid="member-result">
                  <td><Link to={`/console/members/${m.id}`}>{m.id}</Link></td>
                  <td><Link to={`/console/members/${m.id}`}>{m.name ?? t('console.members.no_profile')}</Link></td>
                  <td className="text-break">{m.email}</td>
                  <td>{m.siteId}</td>
                  <td>{t(`console.members.status_${m.status}`)}</td>
                  <td className="text-nowrap">{formatDateTime(m.signupDate, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(page > 1 || hasMore) && (
        <nav className="d-flex gap-2 align-items-center" aria-label={t('console.audit.pages')} data-testid="member-pages">
          {page > 1 && <Link className="btn btn-outline-secondary btn-sm" to={pageLink(page - 1)} rel="prev">{t('console.audit.previous')}</Link>}
          {hasMore && <Link className="btn btn-outline-secondary btn-sm" to={pageLink(page + 1)} rel="next" data-testid="member-next">{t('console.audit.next')}</Link>}
        </nav>
      )}
    </>
  );
}
