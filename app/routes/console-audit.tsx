import { Form, Link, useLoaderData, useNavigation } from 'react-router';
import { AUDIT_LOG_PAGE_SIZE, auditLogQuerySchema, type AuditLogQuery } from '#common/contracts/staff.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-audit';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { FormField } from '../components/FormField.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.audit.title', noindex: true });
}

/** The filters come in the query string (a GET form), so a filtered page can be bookmarked and exported as it is. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const search = new URL(request.url).searchParams;
  const parsed = auditLogQuerySchema.safeParse(Object.fromEntries(search));
  const query: AuditLogQuery = parsed.success ? parsed.data : auditLogQuerySchema.parse({});
  // Staff who are not admins of every site are refused the page (403), as the use case refuses them.
  const page = await orForbidden(ctx.services.console.auditLog(staff, query));
  return { ...page, query, invalid: !parsed.success, search: search.toString() };
}

/** A query string of the filters with `change` applied (empty values left out). */
function withQuery(query: AuditLogQuery, change: Partial<Record<keyof AuditLogQuery, string | number | undefined>>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...change })) if (value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
}

const json = (value: unknown) => (value == null ? '' : JSON.stringify(value));

export default function ConsoleAudit() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { rows, total, page, query, invalid } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== 'idle';
  const pages = Math.max(1, Math.ceil(total / AUDIT_LOG_PAGE_SIZE));
  const exportQuery = withQuery(query, { page: undefined });
  return (
    <>
      <h1 className="h3">{t('console.audit.title')}</h1>
      {invalid && <div className="alert alert-warning" role="alert">{t('console.audit.invalid_filters')}</div>}
      <Form method="get" className="row g-2 align-items-start mb-3" aria-label={t('console.audit.filters')} data-testid="audit-filters">
        <FormField id="audit-staff" name="staff" inputMode="numeric" className="col-6 col-md-2" controlClassName="form-control-sm" label={t('console.audit.staff_id')} defaultValue={query.staff ?? ''} />
        <FormField id="audit-member" name="member" inputMode="numeric" className="col-6 col-md-2" controlClassName="form-control-sm" label={t('console.audit.member_id')} defaultValue={query.member ?? ''} />
        <FormField id="audit-from" name="from" type="date" className="col-6 col-md-2" controlClassName="form-control-sm" label={t('console.audit.from')} defaultValue={query.from ?? ''} />
        <FormField id="audit-to" name="to" type="date" className="col-6 col-md-2" controlClassName="form-control-sm" label={t('console.audit.to')} defaultValue={query.to ?? ''} />
        <FormField as="select" id="audit-sort" name="sort" className="col-6 col-md-2" controlClassName="form-select-sm" label={t('console.audit.sort')} defaultValue={query.sort}>
          <option value="newest">{t('console.audit.newest')}</option>
          <option value="oldest">{t('console.audit.oldest')}</option>
        </FormField>
        <FormField
          id="audit-action" name="action" className="col-12 col-md-6" controlClassName="form-control-sm" label={t('console.audit.action')}
          defaultValue={query.action ?? ''} description={t('console.audit.action_help')}
        />
        <FormField
          id="audit-object" name="object" className="col-12 col-md-6" controlClassName="form-control-sm" label={t('console.audit.object')}
          defaultValue={query.object ?? ''} description={t('console.audit.object_help')}
        />
        <div className="col-12">
          <button type="submit" className="btn btn-primary btn-sm" disabled={busy} data-testid="audit-apply">{t('console.audit.apply')}</button>
        </div>
      </Form>

      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
        <p className="mb-0" role="status" data-testid="audit-total">{t('console.audit.total', { count: total })}</p>
        <div className="d-flex gap-2">
          <Link to="/console/audit" className="btn btn-outline-secondary btn-sm">{t('console.audit.clear')}</Link>
          <a href={`/api/audit-log.csv${exportQuery ? `?${exportQuery}` : ''}`} className="btn btn-outline-primary btn-sm" download data-testid="audit-export">
            {t('console.audit.export')}
          </a>
        </div>
      </div>

      <div className="table-responsive">
        <table className="table table-sm table-striped align-middle" data-testid="audit-table">
          <caption className="visually-hidden">{t('console.audit.caption')}</caption>
          <thead>
            <tr>
              <th scope="col" aria-sort={query.sort === 'oldest' ? 'ascending' : 'descending'}>
                <Link to={`?${withQuery(query, { sort: query.sort === 'oldest' ? 'newest' : 'oldest', page: undefined })}`}>
                  {t('console.audit.time')} <span aria-hidden="true">{query.sort === 'oldest' ? '▲' : '▼'}</span>
                </Link>
              </th>
              <th scope="col">{t('console.audit.staff')}</th>
              <th scope="col">{t('console.audit.role')}</th>
              <th scope="col">{t('console.audit.action')}</th>
              <th scope="col">{t('console.audit.object')}</th>
              <th scope="col">{t('console.audit.member_id')}</th>
              <th scope="col">{t('console.audit.change')}</th>
              <th scope="col">{t('console.audit.address')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-testid="audit-row">
                <td className="text-nowrap">{formatDateTime(row.at, lang)}</td>
                <td>{row.staff_id === null ? t('console.audit.command_line') : `${row.staff_name ?? ''} (${row.staff_id})`}</td>
                <td>{row.role === 'system' ? t('console.audit.system') : t(`console.roles.${row.role}`)}</td>
                <td><code className="text-reset">{row.action}</code></td>
                <td>{row.object_type}{row.object_id ? ` ${row.object_id}` : ''}</td>
                <td>{row.member_id ?? ''}</td>
                <td className="small text-break">
                  {row.before != null && <div><span className="text-body-secondary">{t('console.audit.before')}</span> <code className="text-reset">{json(row.before)}</code></div>}
                  {row.after != null && <div><span className="text-body-secondary">{t('console.audit.after')}</span> <code className="text-reset">{json(row.after)}</code></div>}
                </td>
                <td>{row.ip ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!rows.length && <p className="text-body-secondary">{t('console.audit.empty')}</p>}

      <nav aria-label={t('console.audit.pages')} className="d-flex align-items-center gap-2">
        {page > 1 ? <Link className="btn btn-outline-secondary btn-sm" to={`?${withQuery(query, { page: page - 1 })}`} rel="prev">{t('console.audit.previous')}</Link> : null}
        <span>{t('console.audit.page_of', { page, pages })}</span>
        {page < pages ? <Link className="btn btn-outline-secondary btn-sm" to={`?${withQuery(query, { page: page + 1 })}`} rel="next" data-testid="audit-next">{t('console.audit.next')}</Link> : null}
      </nav>
    </>
  );
}
