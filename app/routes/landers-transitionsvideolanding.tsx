import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-transitionsvideolanding';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref, usePlace } from '../features/landers/shared.tsx';
import { Icon } from '../features/landers/icons.tsx';
import '../features/landers/transitionsvideolanding.scss';
import { pageMeta } from '../lib/seo.ts';
import { FictionalNotice } from '../components/FictionalNotice.tsx';

export const handle = { lander: 'transitionsvideolanding' } as const satisfies LanderHandle;

/** The reel's length in scenes; its timing lives in the stylesheet (four seconds a scene). */
const SCENES = 5;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { lander: handle.lander, slug: params.slug, search: url.search, count: SCENES });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.transitions.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

/**
 * A short film made of members' photos: five scenes, each entering with its own transition (zoom, slide,
 * pan, iris, focus pull), played by CSS alone, with a story-style progress bar. Nothing to download.
 */
export default function TransitionsVideoLander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const place = usePlace();
  const { profiles, search } = loaderData;
  return (
    <div className="lander-reel">
      <div className="container reel-layout">
        <div className="reel-stage" data-testid="lander-profiles" role="group" aria-label={t('landers.transitions.reel_label')}>
          <div className="reel-progress" aria-hidden="true">
            {profiles.map((p) => <span key={p.id}><i /></span>)}
          </div>
          {profiles.map((p, i) => (
            <Link key={p.id} to={memberSignupHref(p.id, search)} className={`reel-scene reel-scene-${i}`} data-testid="lander-profile" tabIndex={-1}>
              {/* All scenes are on the first screen and play within seconds: none waits for lazy loading. */}
              <LanderPhoto profile={p} eager alt="" />
              <span className="reel-caption">
                <strong>{p.name}, {p.age}</strong>
                <span><Icon name="pin" size={14} /> {place(p)}</span>
                {p.fictional && <FictionalNotice compact onDark />}
              </span>
            </Link>
          ))}
          <span className="reel-badge"><span className="reel-dot" /> {t('landers.transitions.badge')}</span>
        </div>
        <div className="reel-copy">
          <h1>{t('landers.transitions.title')}</h1>
          <p>{t('landers.transitions.lead')}</p>
          <Link to={signupHref(search)} className="btn btn-lg reel-cta" data-testid="lander-signup"><Icon name="play" size={18} filled /> {t('landers.transitions.cta')}</Link>
          <LanderLogin className="reel-login" />
        </div>
      </div>
    </div>
  );
}
