import Card from 'react-bootstrap/Card';
import { data } from 'react-router';
import { useTranslation } from '../lib/i18n.ts';
import type { Route } from './+types/report';
import { toId } from '#common/ids.ts';
import { REPORT_KINDS, reportSchema, type ReportKind } from '#common/reports.ts';
import { requestContext } from '../context.ts';
import { pageMeta } from '../lib/seo.ts';
import { orNotFound, requireMemberActor } from '#server/http/page-guards.server.ts';
import { submitForm } from '#server/http/forms.server.ts';
import { ReportForm } from '../features/reports/ReportForm.tsx';

/**
 * The report form as a page: where the report links go without JavaScript (`/report?profile=7&kind=message&id=12`),
 * and the action the report sheet posts to.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname + url.search);
  const profileId = toId(url.searchParams.get('profile'));
  const kind = url.searchParams.get('kind') ?? 'profile';
  const contentId = toId(url.searchParams.get('id'));
  if (profileId === null || !(REPORT_KINDS as readonly string[]).includes(kind) || (kind !== 'profile' && contentId === null)) throw data(null, { status: 404 });
  const profile = await orNotFound(ctx.services.profiles.detail(member, profileId));
  return { target: { profileId, name: profile.name, kind: kind as ReportKind, contentId: kind === 'profile' ? null : contentId } };
}

export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, '/reports');
  return submitForm(ctx, await request.formData(), reportSchema, async (input) => {
    const { existing, blocked } = await ctx.services.reports.report(member, input);
    return { existing, blocked };
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'reports.page_title', noindex: true });
}

export default function Report({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { target } = loaderData;
  return (
    <div className="container py-4 max-w-720" data-page="report">
      <h1 className="h3 mb-3">{t(`reports.title_${target.kind}`, { name: target.name })}</h1>
      <Card className="shadow-sm"><Card.Body className="p-3 p-md-4">
        <ReportForm target={target} />
      </Card.Body></Card>
    </div>
  );
}
