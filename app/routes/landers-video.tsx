import { useState } from 'react';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-video';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref, usePlace } from '../features/landers/shared.tsx';
import { Icon } from '../features/landers/icons.tsx';
import '../features/landers/video.scss';
import { pageMeta } from '../lib/seo.ts';

// The player's clock, progress bar and camera move are stylesheet animations (video.scss): they run from the first
// second while the page's code waits for the visitor; the pause button is a held click.
export const handle: LanderHandle = { lander: 'video' };

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { slug: params.slug, search: url.search, count: 5 });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.video.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

/**
 * A video player around a member: their photo filmed by a slow camera move, with film grain (an animated
 * SVG shipped with the site), a progress bar and a clock; other members are up next.
 */
export default function VideoLander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const place = usePlace();
  const { profiles, search } = loaderData;
  const [star, ...next] = profiles;
  const [playing, setPlaying] = useState(true);
  if (!star) return null;
  return (
    <div className="lander-video">
      <div className="container video-layout">
        <header className="video-head">
          <h1>{t('landers.video.title')}</h1>
          <p>{t('landers.video.lead')}</p>
        </header>
        <section className={`video-player${playing ? '' : ' paused'}`} data-testid="lander-profiles">
          <Link to={memberSignupHref(star.id, search)} className="video-screen" data-testid="lander-profile">
            <LanderPhoto profile={star} eager alt="" />
            <span className="video-grain" aria-hidden="true" />
            <span className="video-tag">{t('landers.video.tag')}</span>
            <span className="video-name"><strong>{star.name}, {star.age}</strong> <span>{place(star)}</span></span>
          </Link>
          <div className="video-controls">
            <button type="button" className="video-play" onClick={() => setPlaying((p) => !p)} aria-label={playing ? t('landers.video.pause') : t('landers.video.play')} data-testid="video-play">
              {playing ? <span className="video-pause-icon" aria-hidden="true" /> : <Icon name="play" size={18} filled />}
            </button>
            <span className="video-bar" aria-hidden="true"><i /></span>
            {/* The seconds are a counter of the stylesheet's clock (0:00 to 0:29); the clip lasts 0:30. */}
            <span className="video-time" aria-hidden="true"><span className="video-clock" data-testid="video-time" /> / 0:30</span>
          </div>
          <div className="video-actions">
            <Link to={memberSignupHref(star.id, search)} className="btn btn-lg video-cta" data-testid="lander-signup"><Icon name="chat" size={20} /> {t('landers.video.message', { name: star.name })}</Link>
            <LanderLogin className="video-login" />
          </div>
        </section>
        <aside className="video-next">
          <h2>{t('landers.video.up_next')}</h2>
          <ul>
            {next.map((p) => (
              <li key={p.id}>
                <Link to={memberSignupHref(p.id, search)} data-testid="lander-profile">
                  <span className="video-thumb"><LanderPhoto profile={p} size="thumb" alt="" /><Icon name="play" size={16} filled /></span>
                  <span><strong>{p.name}, {p.age}</strong><small>{place(p)}</small></span>
                </Link>
              </li>
            ))}
          </ul>
          <Link to={signupHref(search)} className="video-all">{t('landers.video.all')}</Link>
        </aside>
      </div>
    </div>
  );
}
