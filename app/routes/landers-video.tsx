import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-video';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref, usePlace } from '../features/landers/shared.tsx';
import { Icon } from '../features/landers/icons.tsx';
import { FictionalNotice } from '../components/FictionalNotice.tsx';
import '../features/landers/video.scss';
import { pageMeta } from '../lib/seo.ts';

// A photo is shown as a photo (decision 076): no player, clock or progress bar around a still picture.
export const handle = { lander: 'video' } as const satisfies LanderHandle;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { lander: handle.lander, slug: params.slug, search: url.search, count: 5 });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.video.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

/**
 * A member in the spotlight on a dark screen-like page: their photo, labelled as a photo, large, with the call to message
 * them; more members beside it. The route keeps its campaign name ("video"), but nothing on it pretends to be a film.
 */
export default function VideoLander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const place = usePlace();
  const { profiles, search } = loaderData;
  const [star, ...next] = profiles;
  if (!star) return null;
  return (
    <div className="lander-video">
      <div className="container video-layout">
        <header className="video-head">
          <h1>{t('landers.video.title')}</h1>
          <p>{t('landers.video.lead')}</p>
        </header>
        <section className="video-player" data-testid="lander-profiles">
          <Link to={memberSignupHref(star.id, search)} className="video-screen" data-testid="lander-profile">
            <LanderPhoto profile={star} eager alt="" />
            <span className="video-tag" data-testid="video-tag">{t('landers.video.photo_tag')}</span>
            <span className="video-name"><strong>{star.name}, {star.age}</strong> <span>{place(star)}</span></span>
          </Link>
          {star.fictional && <div className="video-fictional"><FictionalNotice compact onDark /></div>}
          <div className="video-actions">
            <Link to={memberSignupHref(star.id, search)} className="btn btn-lg video-cta" data-testid="lander-signup"><Icon name="chat" size={20} /> {t('landers.video.message', { name: star.name })}</Link>
            <LanderLogin className="video-login" />
          </div>
        </section>
        <aside className="video-next">
          <h2>{t('landers.video.more')}</h2>
          <ul>
            {next.map((p) => (
              <li key={p.id}>
                <Link to={memberSignupHref(p.id, search)} data-testid="lander-profile">
                  <span className="video-thumb"><LanderPhoto profile={p} size="thumb" alt="" /></span>
                  <span><strong>{p.name}, {p.age}</strong><small>{place(p)}</small>{p.fictional && <FictionalNotice compact onDark />}</span>
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
