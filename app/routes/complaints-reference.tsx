import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/complaints-reference';
import type { Language } from '#common/languages.ts';
import type { NoticeStatus } from '#common/notices.ts';
import { requestContext } from '../context.ts';
import { formatDateTime } from '../lib/format.ts';
import { pageMeta } from '../lib/seo.ts';
import { orNotFound } from '#server/http/page-guards.server.ts';

/** Only the link from the reporter's mails opens a notice: a wrong or missing token is "not found". */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  return { notice: await orNotFound(ctx.services.notices.follow(ctx.site.id, params.reference, url.searchParams.get('token'))) };
}

export function meta({ matches, data }: Route.MetaArgs) {
  return [...pageMeta(matches, { title: data?.notice.reference, noindex: true })];
}

const STATUS_VARIANT: Record<NoticeStatus, string> = { received: 'secondary', in_review: 'info', removed: 'success', no_action: 'dark' };

/** The reporter follows their notice: what they reported, where it stands, and the outcome once decided. */
export default function ComplaintsReference({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { notice } = loaderData;
  const lang = i18n.language as Language;
  const when = (iso: string) => formatDateTime(iso, lang);
  const decided = notice.status === 'removed' || notice.status === 'no_action';
  return (
    <div className="container py-4 max-w-720" data-page="complaints-reference">
      <h1 className="h3 mb-3">{t('complaints.follow_title')}</h1>
      <Card className="shadow-sm"><Card.Body className="p-3 p-md-4">
        <dl className="row mb-0">
          <dt className="col-sm-4">{t('complaints.reference')}</dt>
          <dd className="col-sm-8 font-monospace" data-testid="follow-reference">{notice.reference}</dd>
          <dt className="col-sm-4">{t('complaints.submitted')}</dt>
          <dd className="col-sm-8">{when(notice.created_at)}</dd>
          <dt className="col-sm-4">{t('complaints.kind')}</dt>
          <dd className="col-sm-8 text-break">{t(`complaints.kinds.${notice.kind}`)}: {notice.content}</dd>
          <dt className="col-sm-4">{t('complaints.reason')}</dt>
          <dd className="col-sm-8">{t(`complaints.reasons.${notice.reason}`)}</dd>
          <dt className="col-sm-4">{t('complaints.status')}</dt>
          <dd className="col-sm-8">
            <Badge bg={STATUS_VARIANT[notice.status]} data-testid="follow-status" data-status={notice.status}>{t(`complaints.statuses.${notice.status}`)}</Badge>
            <div className="small text-muted mt-1">{t(`complaints.status_help.${notice.status}`)}</div>
          </dd>
          {decided && notice.decided_at && (
            <>
              <dt className="col-sm-4">{t('complaints.decided')}</dt>
              <dd className="col-sm-8">{when(notice.decided_at)}</dd>
              <dt className="col-sm-4">{t('complaints.decision')}</dt>
              <dd className="col-sm-8 text-pre-wrap" data-testid="follow-decision">{notice.decision}</dd>
            </>
          )}
        </dl>
      </Card.Body></Card>
      <p className="mt-3"><Link to="/complaints">{t('complaints.new_notice')}</Link></p>
    </div>
  );
}
