import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-collagelanding';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref } from '../features/landers/shared.tsx';
import '../features/landers/collagelanding.scss';
import { pageMeta } from '../lib/seo.ts';
import { FictionalNotice } from '../components/FictionalNotice.tsx';

export const handle = { lander: 'collagelanding' } as const satisfies LanderHandle;

/**
 * Snapshots on the board: twelve on wide screens, the first six on phones. Where each lies (place, turn and width, per
 * screen size) is in collagelanding.scss, by its place in the list: a style attribute would be refused by the page's
 * Content-Security-Policy (docs/decisions/052).
 */
const SNAPSHOTS = 12;
const PHONE_SNAPSHOTS = 6;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { lander: handle.lander, slug: params.slug, search: url.search, count: SNAPSHOTS });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.collagelanding.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

/** Snapshots of members pinned to a blush board with tape, around a white card with the invitation. */
export default function CollageLander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { profiles, search } = loaderData;
  return (
    <div className="lander-collage">
      <div className="container collage-board-wrap">
        <ul className="collage-board" data-testid="lander-profiles">
          {profiles.map((p, i) => (
            <li key={p.id} className={i < PHONE_SNAPSHOTS ? undefined : 'collage-wide-only'}>
              <Link to={memberSignupHref(p.id, search)} className="collage-snap" data-testid="lander-profile">
                <LanderPhoto profile={p} size="thumb" eager={i < PHONE_SNAPSHOTS} />
                <span>{p.name}, {p.age}</span>
                {p.fictional && <FictionalNotice compact />}
              </Link>
            </li>
          ))}
        </ul>
        <section className="collage-card">
          <p className="collage-kicker">{t('landers.collagelanding.kicker')}</p>
          <h1>{t('landers.collagelanding.title')}</h1>
          <p className="collage-lead">{t('landers.collagelanding.lead')}</p>
          <Link to={signupHref(search)} className="btn btn-lg collage-cta" data-testid="lander-signup">{t('landers.collagelanding.cta')}</Link>
          <LanderLogin className="collage-login" />
        </section>
      </div>
    </div>
  );
}
