import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-iconslanding';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref } from '../features/landers/shared.tsx';
import { Icon, type IconName } from '../features/landers/icons.tsx';
import '../features/landers/iconslanding.scss';
import { pageMeta } from '../lib/seo.ts';
import { FictionalNotice } from '../components/FictionalNotice.tsx';

export const handle = { lander: 'iconslanding' } as const satisfies LanderHandle;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { lander: handle.lander, slug: params.slug, search: url.search, count: 6 });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.iconslanding.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

const FEATURE_TEXT = {
  free: ['landers.iconslanding.free_title', 'landers.iconslanding.free_text'],
  match: ['landers.iconslanding.match_title', 'landers.iconslanding.match_text'],
  chat: ['landers.iconslanding.chat_title', 'landers.iconslanding.chat_text'],
  safe: ['landers.iconslanding.safe_title', 'landers.iconslanding.safe_text'],
  near: ['landers.iconslanding.near_title', 'landers.iconslanding.near_text'],
  mobile: ['landers.iconslanding.mobile_title', 'landers.iconslanding.mobile_text'],
} as const;

const FEATURES: [IconName, keyof typeof FEATURE_TEXT][] = [
  ['zap', 'free'], ['heart', 'match'], ['chat', 'chat'], ['shield', 'safe'], ['pin', 'near'], ['phone', 'mobile'],
];

const STEPS = ['landers.iconslanding.step_profile', 'landers.iconslanding.step_like', 'landers.iconslanding.step_chat'] as const;

/** Bright and plain: members orbiting a heart, six icon tiles that say what the site does, three steps. */
export default function IconsLander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { profiles, search } = loaderData;
  return (
    <div className="lander-icons">
      <section className="container icons-hero">
        <div className="icons-copy">
          <h1>{t('landers.iconslanding.title')}</h1>
          <p className="icons-lead">{t('landers.iconslanding.lead')}</p>
          <Link to={signupHref(search)} className="btn btn-lg icons-cta" data-testid="lander-signup">{t('index.cta_signup')}</Link>
          <LanderLogin className="icons-login" />
        </div>
        <div className="icons-orbit" data-testid="lander-profiles">
          <span className="icons-core" aria-hidden="true"><Icon name="heart" size={56} filled /></span>
          {profiles.map((p) => (
            <Link key={p.id} to={memberSignupHref(p.id, search)} className="icons-moon" data-testid="lander-profile" aria-label={`${p.name}, ${p.age}`}>
              <LanderPhoto profile={p} size="thumb" eager alt="" />
              {p.fictional && <span className="icons-fictional"><FictionalNotice compact onDark /></span>}
            </Link>
          ))}
        </div>
      </section>
      <section className="container icons-features">
        <ul>
          {FEATURES.map(([icon, key]) => (
            <li key={key} className={`icons-tile icons-tile-${key}`}>
              <span className="icons-badge"><Icon name={icon} size={26} /></span>
              <h2>{t(FEATURE_TEXT[key][0])}</h2>
              <p>{t(FEATURE_TEXT[key][1])}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="container icons-steps">
        <h2>{t('landers.iconslanding.steps_title')}</h2>
        <ol>
          {STEPS.map((key) => <li key={key}>{t(key)}</li>)}
        </ol>
        <Link to={signupHref(search)} className="btn btn-lg icons-cta">{t('index.cta_signup')}</Link>
      </section>
    </div>
  );
}
