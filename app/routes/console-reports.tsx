import { useLoaderData } from 'react-router';
import { DASHBOARD_BUCKETS, dashboardQuerySchema, type Dashboard, type DashboardQuery } from '#common/contracts/dashboard.ts';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-reports';
import { requestContext } from '../context.ts';
import { FormField } from '../components/FormField.tsx';
import { PeriodForm } from '../features/console/PeriodForm.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.reports.title', noindex: true });
}

/**
 * The reports dashboard for a period, bucket and site (a GET form, so that a view can be bookmarked and each table
 * downloaded as it is shown). A period the use case refuses shows its message and the last 30 days instead.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const parsed = dashboardQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const query: Partial<DashboardQuery> = parsed.success ? parsed.data : {};
  const sites = await ctx.services.console.sites(staff);
  try {
    const report = await orForbidden(ctx.services.console.dashboard(staff, query));
    return { report, sites, error: parsed.success ? null : ctx.translator.t(await consoleLanguage(ctx), 'errors.invalid_input') };
  } catch (error) {
    const message = consoleErrorText(ctx, await consoleLanguage(ctx), error, []).message;
    return { report: await orForbidden(ctx.services.console.dashboard(staff, { site: query.site, bucket: query.bucket })), sites, error: message };
  }
}

type Activity = Dashboard['activity'][number];
type Money = { currency: string; orders: number; cents: number };
const SERIES_COLOURS = ['#0d6efd', '#198754', '#d63384', '#fd7e14', '#6f42c1', '#6c757d'];

/** A bar chart of some series over the buckets (SVG drawn here: no chart library in any bundle). Its table follows it. */
function BarChart({ label, buckets, series, testId }: { label: string; buckets: string[]; series: { name: string; values: number[] }[]; testId: string }) {
  const width = 960;
  const height = 140;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const slot = width / Math.max(1, buckets.length);
  const bar = Math.max(1, (slot * 0.8) / series.length);
  return (
    <figure className="mb-2" data-testid={testId}>
      <svg viewBox={`0 0 ${width} ${height + 4}`} role="img" aria-label={label} className="w-100 border rounded bg-body-tertiary">
        {series.map((s, i) => s.values.map((value, b) => (
          <rect key={`${i}-${b}`} x={b * slot + slot * 0.1 + i * bar} y={height - (value / max) * height + 2} width={bar} height={(value / max) * height} fill={SERIES_COLOURS[i % SERIES_COLOURS.length]}>
            <title>{`${buckets[b]}: ${s.name} ${value}`}</title>
          </rect>
        )))}
      </svg>
      <figcaption className="small d-flex flex-wrap gap-3">
        {series.map((s, i) => <span key={s.name}><svg aria-hidden="true" width="10" height="10"><rect width="10" height="10" fill={SERIES_COLOURS[i % SERIES_COLOURS.length]} /></svg> {s.name}</span>)}
      </figcaption>
    </figure>
  );
}

/** A table of rows with a CSV link of the same table. */
function Table({ caption, head, rows, csv, testId }: { caption: string; head: string[]; rows: (string | number)[][]; csv: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="table-responsive mb-3">
      <div className="d-flex justify-content-end"><a href={csv} className="btn btn-outline-primary btn-sm" download data-testid={`${testId}-csv`}>{t('console.reports.export')}</a></div>
      <table className="table table-sm align-middle" data-testid={testId}>
        <caption className="caption-top text-body fw-semibold">{caption}</caption>
        <thead><tr>{head.map((h, i) => <th key={h} scope="col" className={i ? 'text-end' : undefined}>{h}</th>)}</tr></thead>
        <tbody>
          {rows.length === 0 && <tr><td colSpan={head.length} className="text-body-secondary">{t('console.reports.none')}</td></tr>}
          {rows.map((row, r) => <tr key={r}>{row.map((cell, i) => (i ? <td key={i} className="text-end">{cell}</td> : <th key={i} scope="row" className="fw-normal">{cell}</th>))}</tr>)}
        </tbody>
      </table>
    </div>
  );
}

export default function ConsoleReports() {
  const { t, i18n: { language } } = useTranslation();
  const { report, sites, error } = useLoaderData<typeof loader>();
  const number = new Intl.NumberFormat(language);
  const amount = (row: Money) => new Intl.NumberFormat(language, { style: 'currency', currency: row.currency }).format(row.cents / 100);
  const percent = (part: number, whole: number) => (whole ? new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(part / whole) : '–');
  const day = (iso: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  const query = new URLSearchParams({ from: report.from, to: report.to, bucket: report.bucket, ...(report.site_id ? { site: String(report.site_id) } : {}) });
  const csv = (table: string) => `/api/reports-dashboard.csv?${query}&table=${table}`;
  const buckets = report.activity.map((row) => row.bucket);
  const column = (key: keyof Omit<Activity, 'bucket'>) => ({ name: t(`console.reports.columns.${key}`), values: report.activity.map((row) => row[key]) });
  const activityTable = (keys: (keyof Omit<Activity, 'bucket'>)[], caption: string, testId: string) => (
    <>
      <BarChart label={caption} buckets={buckets} series={keys.map(column)} testId={`${testId}-chart`} />
      <Table caption={caption} testId={testId} csv={csv('activity')} head={[t('console.reports.columns.bucket'), ...keys.map((key) => t(`console.reports.columns.${key}`))]}
        rows={report.activity.map((row) => [day(row.bucket), ...keys.map((key) => number.format(row[key]))])} />
    </>
  );
  const moneyHead = (first: string) => [first, t('console.reports.columns.currency'), t('console.reports.columns.orders'), t('console.reports.columns.amount')];
  const moneyRows = (rows: (Money & { key?: string; bucket?: string })[]) => rows.map((row) => [row.bucket ? day(row.bucket) : row.key || '–', row.currency, number.format(row.orders), amount(row)]);
  const { totals } = report;
  return (
    <>
      <h1 className="h3">{t('console.reports.title')}</h1>
      <p className="text-body-secondary">{t('console.reports.intro')}</p>
      {error && <div className="alert alert-warning" role="alert">{error}</div>}
      <PeriodForm
        idPrefix="reports" from={report.from} to={report.to} siteId={report.site_id} sites={sites}
        labels={{ period: t('console.reports.period'), from: t('console.reports.from'), to: t('console.reports.to'), site: t('console.reports.site'), allSites: t('console.reports.all_sites'), apply: t('console.reports.apply') }}
      >
        <FormField as="select" id="reports-bucket" name="bucket" className="col-6 col-md-2" controlClassName="form-select-sm" label={t('console.reports.bucket')} defaultValue={report.bucket}>
          {DASHBOARD_BUCKETS.map((bucket) => <option key={bucket} value={bucket}>{t(`console.reports.buckets.${bucket}`)}</option>)}
        </FormField>
      </PeriodForm>
      <p role="status" data-testid="reports-period">{t('console.reports.showing', { from: day(report.from), to: day(report.to) })}</p>
      <dl className="row small" data-testid="reports-totals">
        <dt className="col-6 col-md-3">{t('console.reports.columns.visits')}</dt><dd className="col-6 col-md-3" data-testid="reports-visits">{number.format(totals.visits)}</dd>
        <dt className="col-6 col-md-3">{t('console.reports.visit_conversion')}</dt><dd className="col-6 col-md-3" data-testid="reports-visit-conversion">{percent(totals.signups, totals.visits)}</dd>
        <dt className="col-6 col-md-3">{t('console.reports.columns.signups')}</dt><dd className="col-6 col-md-3">{number.format(totals.signups)}</dd>
        <dt className="col-6 col-md-3">{t('console.reports.columns.first_purchases')}</dt><dd className="col-6 col-md-3">{number.format(totals.first_purchases)}</dd>
        <dt className="col-6 col-md-3">{t('console.reports.conversion')}</dt><dd className="col-6 col-md-3" data-testid="reports-conversion">{percent(totals.first_purchases, totals.signups)}</dd>
        <dt className="col-6 col-md-3">{t('console.reports.columns.active_members')}</dt><dd className="col-6 col-md-3">{number.format(totals.active_members)}</dd>
      </dl>
      <p className="small text-body-secondary">{t('console.reports.notes')}</p>

      <section aria-labelledby="reports-members"><h2 className="h5" id="reports-members">{t('console.reports.members')}</h2>
        {activityTable(['visits', 'signups', 'activations', 'first_purchases', 'active_members', 'page_bounces'], t('console.reports.members'), 'reports-members-table')}
        <Table caption={t('console.reports.by_lander')} testId="reports-by_lander" csv={csv('by_lander')}
          head={[t('console.reports.keys.by_lander'), ...(['visits', 'signups', 'activations', 'first_purchases'] as const).map((key) => t(`console.reports.columns.${key}`)),
            t('console.reports.visit_conversion'), t('console.reports.conversion')]}
          rows={report.by_lander.map((row) => [row.lander, number.format(row.visits), number.format(row.signups), number.format(row.activations),
            number.format(row.first_purchases), percent(row.signups, row.visits), percent(row.first_purchases, row.signups)])} />
      </section>
      <section aria-labelledby="reports-messages"><h2 className="h5" id="reports-messages">{t('console.reports.messages')}</h2>
        {activityTable(['messages_paid', 'messages_free', 'messages_to_fictional', 'gifts', 'gifts_to_fictional'], t('console.reports.messages'), 'reports-messages-table')}
      </section>
      <section aria-labelledby="reports-revenue"><h2 className="h5" id="reports-revenue">{t('console.reports.revenue')}</h2>
        {[...new Set(report.revenue.map((row) => row.currency))].map((currency) => (
          <BarChart key={currency} label={`${t('console.reports.revenue')} ${currency}`} buckets={buckets} testId={`reports-revenue-chart-${currency}`}
            series={[{ name: currency, values: buckets.map((b) => report.revenue.find((row) => row.bucket === b && row.currency === currency)?.cents ?? 0) }]} />
        ))}
        <Table caption={t('console.reports.revenue')} testId="reports-revenue-table" csv={csv('revenue')} head={moneyHead(t('console.reports.columns.bucket'))} rows={moneyRows(report.revenue)} />
        <div className="row">
          {(['by_method', 'by_country', 'by_package', 'by_site'] as const).map((table) => (
            <div key={table} className="col-12 col-lg-6">
              <Table caption={t(`console.reports.${table}`)} testId={`reports-${table}`} csv={csv(table)} head={moneyHead(t(`console.reports.keys.${table}`))} rows={moneyRows(report[table])} />
            </div>
          ))}
          {(['refunds', 'chargebacks'] as const).map((table) => (
            <div key={table} className="col-12 col-lg-6">
              <Table caption={t(`console.reports.${table}`)} testId={`reports-${table}`} csv={csv(table)} head={moneyHead(t('console.reports.columns.bucket'))} rows={moneyRows(report[table])} />
            </div>
          ))}
        </div>
      </section>
    </>
  );
}
