import { useLoaderData } from 'react-router';
import { transparencyQuerySchema, type TransparencyReport } from '#common/contracts/staff.ts';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/console-transparency';
import { requestContext } from '../context.ts';
import { PeriodForm } from '../features/console/PeriodForm.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.transparency.title', noindex: true });
}

/**
 * The DSA transparency report's figures for a period and a site (a GET form, so that a report can be bookmarked and
 * downloaded as it is shown). A period the use case refuses shows its message and this year's figures instead.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const search = new URL(request.url).searchParams;
  const parsed = transparencyQuerySchema.safeParse(Object.fromEntries(search));
  const query = parsed.success ? parsed.data : {};
  const sites = await ctx.services.console.sites(staff);
  try {
    const report = await orForbidden(ctx.services.console.transparencyReport(staff, query));
    return { report, sites, error: parsed.success ? null : ctx.translator.t(await consoleLanguage(ctx), 'errors.invalid_input') };
  } catch (error) {
    const message = consoleErrorText(ctx, await consoleLanguage(ctx), error, []).message;
    return { report: await orForbidden(ctx.services.console.transparencyReport(staff, { site: query.site })), sites, error: message };
  }
}

type Row = { key: string; count: number; automated?: number };

/** One table of figures: a label per row, its count, and (for decisions) how many of them were automated. */
function Figures({ caption, rows, label, testId, automated }: {
  caption: string; rows: Row[]; label: (key: string) => React.ReactNode; testId: string; automated?: boolean;
}) {
  const { t, i18n: { language } } = useTranslation();
  const number = new Intl.NumberFormat(language);
  return (
    <table className="table table-sm align-middle" data-testid={testId}>
      <caption className="caption-top text-body">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('console.transparency.item')}</th>
          <th scope="col" className="text-end">{t('console.transparency.count')}</th>
          {automated && <th scope="col" className="text-end">{t('console.transparency.automated')}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-key={row.key}>
            <th scope="row" className="fw-normal">{label(row.key)}</th>
            <td className="text-end">{number.format(row.count)}</td>
            {automated && <td className="text-end">{number.format(row.automated ?? 0)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A median in hours, or that nothing was decided. */
function hours(value: number | null, lang: Language, t: (key: string, params?: Record<string, unknown>) => string): string {
  if (value === null) return t('console.transparency.none_decided');
  return t('console.transparency.hours', { value: new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(value) });
}

/** The headline figures of a section, as a table of two columns. */
function Summary({ caption, rows, testId }: { caption: string; rows: [string, string, string][]; testId: string }) {
  return (
    <table className="table table-sm align-middle" data-testid={testId}>
      <caption className="caption-top text-body fw-semibold">{caption}</caption>
      <tbody>
        {rows.map(([key, label, value]) => <tr key={key} data-key={key}><th scope="row" className="fw-normal">{label}</th><td className="text-end">{value}</td></tr>)}
      </tbody>
    </table>
  );
}

export default function ConsoleTransparency() {
  const { t, i18n: { language } } = useTranslation();
  const lang = language as Language;
  const { report, sites, error } = useLoaderData<typeof loader>();
  const number = new Intl.NumberFormat(lang);
  const percent = (part: number, whole: number) => (whole ? new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(part / whole) : '–');
  const day = (iso: string) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  const query = new URLSearchParams({ from: report.from, to: report.to, ...(report.site_id ? { site: String(report.site_id) } : {}) });
  const { notices, member_reports: reports, decisions, appeals } = report satisfies TransparencyReport;
  return (
    <>
      <h1 className="h3">{t('console.transparency.title')}</h1>
      <p className="text-body-secondary">{t('console.transparency.intro')}</p>
      {error && <div className="alert alert-warning" role="alert">{error}</div>}
      <PeriodForm
        idPrefix="transparency" from={report.from} to={report.to} siteId={report.site_id} sites={sites}
        labels={{ period: t('console.transparency.period'), from: t('console.transparency.from'), to: t('console.transparency.to'), site: t('console.transparency.site'), allSites: t('console.transparency.all_sites'), apply: t('console.transparency.apply') }}
        actions={<a href={`/api/transparency-report.csv?${query}`} className="btn btn-outline-primary btn-sm" download data-testid="transparency-export">{t('console.transparency.export')}</a>}
      />
      <p role="status" data-testid="transparency-period">{t('console.transparency.showing', { from: day(report.from), to: day(report.to) })}</p>

      <div className="row g-4">
        <section className="col-12 col-lg-6" aria-labelledby="transparency-notices">
          <h2 className="h5" id="transparency-notices">{t('console.transparency.notices')}</h2>
          <Summary testId="transparency-notices-summary" caption={t('console.transparency.summary')} rows={[
            ['received', t('console.transparency.received'), number.format(notices.received)],
            ['removed', t('console.transparency.removed'), number.format(notices.removed)],
            ['no_action', t('console.transparency.no_action'), number.format(notices.no_action)],
            ['median', t('console.transparency.median'), hours(notices.median_hours_to_decision, lang, t)],
          ]} />
          <Figures testId="transparency-notice-reasons" caption={t('console.transparency.by_reason')} rows={notices.by_reason} label={(key) => t(`complaints.reasons.${key}`)} />
        </section>
        <section className="col-12 col-lg-6" aria-labelledby="transparency-reports">
          <h2 className="h5" id="transparency-reports">{t('console.transparency.member_reports')}</h2>
          <Summary testId="transparency-reports-summary" caption={t('console.transparency.summary')} rows={[
            ['received', t('console.transparency.received'), number.format(reports.received)],
            ['actioned', t('console.transparency.actioned'), number.format(reports.actioned)],
            ['dismissed', t('console.transparency.dismissed'), number.format(reports.dismissed)],
            ['median', t('console.transparency.median'), hours(reports.median_hours_to_decision, lang, t)],
          ]} />
          <Figures testId="transparency-report-reasons" caption={t('console.transparency.by_reason')} rows={reports.by_reason} label={(key) => t(`reports.reasons.${key}`)} />
        </section>
        <section className="col-12 col-lg-6" aria-labelledby="transparency-decisions">
          <h2 className="h5" id="transparency-decisions">{t('console.transparency.decisions')}</h2>
          <Summary testId="transparency-decisions-summary" caption={t('console.transparency.summary')} rows={[
            ['total', t('console.transparency.total'), number.format(decisions.total)],
            ['automated', t('console.transparency.automated_share'), `${number.format(decisions.automated)} (${percent(decisions.automated, decisions.total)})`],
            ['reversed', t('console.transparency.reversed'), number.format(decisions.reversed)],
          ]} />
          <Figures testId="transparency-restrictions" caption={t('console.transparency.by_restriction')} rows={decisions.by_restriction} label={(key) => t(`console.transparency.restrictions.${key}`)} />
          <Figures testId="transparency-sources" caption={t('console.transparency.by_source')} rows={decisions.by_source} label={(key) => t(`statements.sources.${key}`)} />
        </section>
        <section className="col-12 col-lg-6" aria-labelledby="transparency-grounds">
          <h2 className="h5" id="transparency-grounds">{t('console.transparency.grounds')}</h2>
          <Figures
            testId="transparency-by-ground" caption={t('console.transparency.by_ground')} rows={decisions.by_ground} automated
            label={(key) => <><code className="text-reset">{key}</code><br /><small className="text-body-secondary">{t(`statements.grounds.${key}`)}</small></>}
          />
        </section>
        <section className="col-12 col-lg-6" aria-labelledby="transparency-appeals">
          <h2 className="h5" id="transparency-appeals">{t('console.transparency.appeals')}</h2>
          <Summary testId="transparency-appeals-summary" caption={t('console.transparency.summary')} rows={[
            ['received', t('console.transparency.received'), number.format(appeals.received)],
            ['reversed', t('console.transparency.appeal_reversed'), number.format(appeals.reversed)],
            ['confirmed', t('console.transparency.appeal_confirmed'), number.format(appeals.confirmed)],
            ['median', t('console.transparency.median'), hours(appeals.median_hours_to_decision, lang, t)],
          ]} />
        </section>
      </div>
    </>
  );
}
