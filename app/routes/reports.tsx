import Badge from 'react-bootstrap/Badge';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link } from 'react-router';
import { useTranslation } from '../lib/i18n.ts';
import type { Route } from './+types/reports';
import type { Language } from '#common/languages.ts';
import type { ReportStatus } from '#common/reports.ts';
import { requestContext } from '../context.ts';
import { formatDateTime } from '../lib/format.ts';
import { pageMeta } from '../lib/seo.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname);
  return { reports: await ctx.services.reports.mine(member) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'reports.my_title', noindex: true });
}

const STATUS_VARIANT: Record<ReportStatus, string> = { open: 'secondary', actioned: 'success', dismissed: 'dark' };

/** The member's own reports and where each stands (never what was decided about someone else, nor by whom). */
export default function MyReports({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { reports } = loaderData;
  return (
    <div className="container py-4 max-w-720" data-page="reports">
      <h1 className="h3 mb-2">{t('reports.my_title')}</h1>
      <p className="text-muted">{t('reports.my_lead')}</p>
      {reports.length === 0 ? (
        <p data-testid="reports-none">{t('reports.none')}</p>
      ) : (
        <ListGroup as="ul" data-testid="reports-list">
          {reports.map((r) => (
            <ListGroup.Item as="li" key={r.id} data-testid="report-item" data-status={r.status}>
              <div className="d-flex flex-wrap justify-content-between gap-2">
                <div>
                  <span className="fw-semibold">
                    {r.profile_name ? <Link to={`/members/${r.profile_id}`}>{r.profile_name}</Link> : t('reports.a_member')}
                  </span>
                  <span className="text-muted"> · {t(`reports.kinds.${r.kind}`)} · {t(`reports.reasons.${r.reason}`)}</span>
                </div>
                <Badge bg={STATUS_VARIANT[r.status]} data-testid="report-status">{t(`reports.statuses.${r.status}`)}</Badge>
              </div>
              <div className="small text-muted">{t('reports.reported_on', { date: formatDateTime(r.created_at, i18n.language as Language) })}</div>
              <div className="small">{t(`reports.status_help.${r.status}`)}</div>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
    </div>
  );
}
