import type { CSSProperties } from 'react';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-collagelanding';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-pages.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref } from '../features/landers/shared.tsx';
import '../features/landers/collagelanding.scss';
import { pageMeta } from '../lib/seo.ts';

export const handle: LanderHandle = { lander: 'collagelanding' };

/**
 * Where each snapshot lies on the board: [x %, y %, turn °, width %] on wide screens, then on phones.
 * Wide screens keep the middle free for the card; phones show the first six above it.
 */
const SPOTS: [number, number, number, number, number, number, number, number][] = [
  [2, 4, -8, 15, 3, 2, -6, 30], [18, 0, 5, 13, 35, 0, 4, 30], [68, 2, -4, 14, 67, 3, -3, 30], [84, 9, 7, 14, 0, 50, 5, 30],
  [0, 44, 6, 14, 34, 47, -4, 31], [14, 60, -5, 14, 67, 52, 6, 30], [72, 46, -7, 13, 0, 0, 0, 0], [86, 56, 4, 13, 0, 0, 0, 0],
  [30, 73, 3, 12, 0, 0, 0, 0], [57, 74, -6, 12, 0, 0, 0, 0], [32, -2, -3, 11, 0, 0, 0, 0], [55, -1, 6, 11, 0, 0, 0, 0],
];

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { slug: params.slug, search: url.search, count: SPOTS.length });
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
          {profiles.map((p, i) => {
            const [x, y, r, w, mx, my, mr, mw] = SPOTS[i];
            const style = { '--x': `${x}%`, '--y': `${y}%`, '--r': `${r}deg`, '--w': `${w}%`, '--mx': `${mx}%`, '--my': `${my}%`, '--mr': `${mr}deg`, '--mw': `${mw}%` } as CSSProperties;
            return (
              <li key={p.id} style={style} className={mw ? undefined : 'collage-wide-only'}>
                <Link to={memberSignupHref(p.id, search)} className="collage-snap" data-testid="lander-profile">
                  <LanderPhoto profile={p} size="thumb" eager={i < 6} />
                  <span>{p.name}, {p.age}</span>
                </Link>
              </li>
            );
          })}
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
