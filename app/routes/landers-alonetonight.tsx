import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-alonetonight';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref } from '../features/landers/shared.tsx';
import { Icon, type IconName } from '../features/landers/icons.tsx';
import '../features/landers/alonetonight.scss';
import { pageMeta } from '../lib/seo.ts';
import { FictionalNotice } from '../components/FictionalNotice.tsx';

export const handle = { lander: 'alonetonight' } as const satisfies LanderHandle;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { lander: handle.lander, slug: params.slug, search: url.search, count: 10 });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.alonetonight.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

const MOODS: [IconName, string][] = [
  ['chat', 'landers.alonetonight.mood_chat'],
  ['heart', 'landers.alonetonight.mood_date'],
  ['moon', 'landers.alonetonight.mood_look'],
];

/** A starry night: the question, a row of faces, and three moods that all lead into sign-up. */
export default function AloneTonightLander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { profiles, total, capped, search } = loaderData;
  return (
    <div className="lander-night">
      <div className="night-sky" aria-hidden="true"><span className="night-moon" /></div>
      <div className="container night-content">
        <h1 className="night-title">{t('landers.alonetonight.title')}</h1>
        <p className="night-lead">{t(capped ? 'landers.alonetonight.lead_capped' : 'landers.alonetonight.lead', { count: total })}</p>
        <section className="night-faces" aria-label={t('landers.alonetonight.faces')}>
          <h2>{t('landers.alonetonight.faces')}</h2>
          <ul data-testid="lander-profiles">
            {profiles.map((p, i) => (
              <li key={p.id}>
                <Link to={memberSignupHref(p.id, search)} data-testid="lander-profile">
                  <span className="night-avatar"><LanderPhoto profile={p} size="thumb" eager={i < 5} /></span>
                  <span className="night-name">{p.name}, {p.age}</span>
                  {p.fictional && <FictionalNotice compact onDark />}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section className="night-card">
          <h2>{t('landers.alonetonight.question')}</h2>
          <div className="night-moods">
            {MOODS.map(([icon, key]) => (
              <Link key={key} to={signupHref(search)} className="night-mood" data-testid="lander-signup">
                <Icon name={icon} size={22} /> <span>{t(key)}</span> <span className="night-arrow" aria-hidden="true">›</span>
              </Link>
            ))}
          </div>
          <p className="night-note">{t('landers.alonetonight.note')}</p>
          <LanderLogin className="night-login" />
        </section>
      </div>
    </div>
  );
}
