import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-video';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-pages.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref, usePlace } from '../features/landers/shared.tsx';
import { Icon } from '../features/landers/icons.tsx';
import '../features/landers/video.scss';
import { pageMeta } from '../lib/seo.ts';

// Runs at load: the player's clock and progress bar move from the first second.
export const handle: LanderHandle = { lander: 'video', hydrate: 'at-load' };

/** The clip's length in seconds; the stylesheet's camera move lasts as long. */
const CLIP_SECONDS = 30;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { slug: params.slug, search: url.search, count: 5 });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.video.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

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
  const [second, setSecond] = useState(0);
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => setSecond((s) => (s + 1) % CLIP_SECONDS), 1000);
    return () => clearInterval(timer);
  }, [playing]);
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
            <span className="video-bar" aria-hidden="true"><i style={{ width: `${(second / (CLIP_SECONDS - 1)) * 100}%` }} /></span>
            <span className="video-time" data-testid="video-time">{clock(second)} / {clock(CLIP_SECONDS)}</span>
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
