import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-socialnetwork';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref, usePlace } from '../features/landers/shared.tsx';
import { Icon } from '../features/landers/icons.tsx';
import { FictionalNotice } from '../components/FictionalNotice.tsx';
import '../features/landers/socialnetwork.scss';
import { pageMeta } from '../lib/seo.ts';

export const handle = { lander: 'socialnetwork' } as const satisfies LanderHandle;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { lander: handle.lander, slug: params.slug, search: url.search, count: 10 });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.socialnetwork.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

/** A social feed: stories, a composer, members' posts and people to know; every action asks to join first. */
export default function SocialNetworkLander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const place = usePlace();
  const { profiles, search } = loaderData;
  const posts = profiles.slice(0, 3);
  const suggestions = profiles.slice(3, 8);
  return (
    <div className="lander-social">
      <div className="container social-layout">
        <aside className="social-join">
          <h1>{t('landers.socialnetwork.title')}</h1>
          <p>{t('landers.socialnetwork.lead')}</p>
          <Link to={signupHref(search)} className="btn social-cta" data-testid="lander-signup">{t('index.cta_signup')}</Link>
          <LanderLogin className="social-login" />
        </aside>
        <div className="social-feed">
          <nav className="social-stories" aria-label={t('landers.socialnetwork.stories')}>
            <Link to={signupHref(search)} className="social-story social-story-you">
              <span className="social-ring"><span className="social-plus">+</span></span>
              <span>{t('landers.socialnetwork.your_story')}</span>
            </Link>
            {profiles.map((p, i) => (
              <Link key={p.id} to={memberSignupHref(p.id, search)} className="social-story">
                <span className="social-ring"><LanderPhoto profile={p} size="thumb" eager={i < 5} alt="" /></span>
                <span>{p.name}</span>
              </Link>
            ))}
          </nav>
          <Link to={signupHref(search)} className="social-composer">
            <span className="social-composer-field">{t('landers.socialnetwork.composer')}</span>
            <span className="social-composer-go" aria-hidden="true"><Icon name="send" size={18} /></span>
          </Link>
          <ul className="social-posts" data-testid="lander-profiles">
            {posts.map((p, i) => (
              <li key={p.id} className="social-post">
                <header>
                  <LanderPhoto profile={p} size="thumb" eager={i === 0} alt="" className="social-post-avatar" />
                  <span>
                    <strong>{p.name}, {p.age}</strong>
                    <small>{t('landers.socialnetwork.posted')} · {place(p)}</small>
                  </span>
                </header>
                {p.fictional && <div className="px-3"><FictionalNotice compact /></div>}
                <Link to={memberSignupHref(p.id, search)} data-testid="lander-profile" className="social-post-photo">
                  <LanderPhoto profile={p} eager={i === 0} />
                </Link>
                <footer>
                  <Link to={memberSignupHref(p.id, search)}><Icon name="heart" size={20} /> {t('landers.socialnetwork.like')}</Link>
                  <Link to={memberSignupHref(p.id, search)}><Icon name="chat" size={20} /> {t('landers.socialnetwork.comment')}</Link>
                  <Link to={memberSignupHref(p.id, search)}><Icon name="send" size={20} /> {t('landers.socialnetwork.message')}</Link>
                </footer>
              </li>
            ))}
          </ul>
        </div>
        <aside className="social-people">
          <h2>{t('landers.socialnetwork.people')}</h2>
          <ul>
            {suggestions.map((p) => (
              <li key={p.id}>
                <LanderPhoto profile={p} size="thumb" alt="" />
                <span><strong>{p.name}, {p.age}</strong><small>{place(p)}</small></span>
                <Link to={memberSignupHref(p.id, search)} className="social-add">{t('landers.socialnetwork.add')}</Link>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </div>
  );
}
