import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/members-id-landing2';
import { requestContext } from '../context.ts';
import { memberLanderPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, usePlace } from '../features/landers/shared.tsx';
import { Icon } from '../features/landers/icons.tsx';
import { FictionalNotice } from '../components/FictionalNotice.tsx';
import '../features/landers/member-landing2.scss';
import { pageMeta } from '../lib/seo.ts';

export const handle: LanderHandle = { lander: 'landing2' };

export async function loader({ context, params, url }: Route.LoaderArgs) {
  return memberLanderPage(context.get(requestContext), { lander: 'member-landing2', id: params.id, slug: params.slug, search: url.search });
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: d && `${d.profile.name}, ${d.profile.age}` });
}

const OPENERS = ['landers.landing2.opener_hi', 'landers.landing2.opener_tonight', 'landers.landing2.opener_photo'] as const;

/** A chat with the member, opened by the visitor: their own words in a bubble, openers to pick, a composer. */
export default function MemberLanding2({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const place = usePlace();
  const { profile, search } = loaderData;
  const signup = memberSignupHref(profile.id, search);
  return (
    <div className="lander-chat">
      <div className="container chat-phone-wrap">
        <h1 className="chat-title">{t('landers.landing2.title', { name: profile.name })}</h1>
        <section className="chat-phone" data-testid="lander-profiles">
          <header className="chat-phone-head">
            <Link to={signup} data-testid="lander-profile"><LanderPhoto profile={profile} size="thumb" eager /></Link>
            <span>
              <strong>{profile.name}, {profile.age}</strong>
              <small>{place(profile)}</small>
            </span>
          </header>
          {profile.fictional && <div className="px-3 pt-2"><FictionalNotice compact /></div>}
          <div className="chat-phone-body">
            <Link to={signup} className="chat-photo-bubble"><LanderPhoto profile={profile} eager alt={profile.name} /></Link>
            {profile.about && (
              <figure className="chat-about">
                <figcaption>{t('landers.landing2.about', { name: profile.name })}</figcaption>
                <blockquote>{profile.about}</blockquote>
              </figure>
            )}
            <p className="chat-nudge">{t('landers.landing2.nudge', { name: profile.name })}</p>
            <div className="chat-openers">
              {OPENERS.map((key) => <Link key={key} to={signup} className="chat-opener">{t(key, { name: profile.name })}</Link>)}
            </div>
          </div>
          <Link to={signup} className="chat-composer" data-testid="lander-signup">
            <span>{t('landers.landing2.placeholder', { name: profile.name })}</span>
            <span className="chat-send" aria-hidden="true"><Icon name="send" size={18} /></span>
          </Link>
        </section>
        <LanderLogin className="chat-login" />
      </div>
    </div>
  );
}
