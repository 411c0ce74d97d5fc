import { useTranslation } from '../lib/i18n.ts';
import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/members-id-landing';
import { requestContext } from '../context.ts';
import { orNotFound } from '#server/http/page-guards.server.ts';
import { countVisit } from '#server/landers/lander-loaders.server.ts';
import { ProfilePhoto } from '../components/ProfilePhoto.tsx';
import { toId } from '#common/ids.ts';
import { pageMeta } from '../lib/seo.ts';

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const id = toId(params.id);
  if (id === null) throw data(null, { status: 404 });
  // Members go straight to the profile; the landing page is for visitors from campaigns.
  if (ctx.userId) throw redirect(`/members/${id}`);
  const profile = await orNotFound(ctx.services.profiles.detail(ctx.actor, id));
  await countVisit(ctx, 'member-landing');
  return { profile, search: url.search };
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: d && `${d.profile.name}, ${d.profile.age}` });
}

/** A member's landing page for visitors: their photo and a sign-up call to action (tracking parameters kept). */
export default function MemberLanding({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { profile, search } = loaderData;
  return (
    <div className="hero py-5">
      <div className="container text-center max-w-560">
        <ProfilePhoto profile={profile} size="full" className="profile-photo shadow mb-4 mx-auto d-flex" />
        <h1 className="h2">{t('landing.title', { name: profile.name })}</h1>
        <p className="lead">{t('landing.lead', { name: profile.name })}</p>
        <Link to={`/members/${profile.id}/signup${search}`} className="btn btn-light btn-lg" data-testid="landing-signup">{t('index.cta_signup')}</Link>
        <p className="mt-3">
          <Link to={`/login?redirect=/members/${profile.id}`} className="link-light">{t('landing.login')}</Link>
        </p>
      </div>
    </div>
  );
}
