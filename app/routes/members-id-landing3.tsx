import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/members-id-landing3';
import { requestContext } from '../context.ts';
import { memberLanderPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, usePlace } from '../features/landers/shared.tsx';
import { Icon } from '../features/landers/icons.tsx';
import { FictionalNotice } from '../components/FictionalNotice.tsx';
import { attributeValueLabel } from '../features/profile/labels.ts';
import '../features/landers/member-landing3.scss';
import { pageMeta } from '../lib/seo.ts';

export const handle: LanderHandle = { lander: 'landing3' };

export async function loader({ context, params, url }: Route.LoaderArgs) {
  return memberLanderPage(context.get(requestContext), { lander: 'member-landing3', id: params.id, slug: params.slug, search: url.search });
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: d && `${d.profile.name}, ${d.profile.age}` });
}

/** The member in the spotlight: a large portrait, their locked photos, what they are like, two calls to action. */
export default function MemberLanding3({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const place = usePlace();
  const { profile, search } = loaderData;
  const signup = memberSignupHref(profile.id, search);
  const locked = profile.photos.filter((p) => p.locked).length;
  const traits = Object.entries(profile.attributes).filter(([key]) => key !== 'gender');
  return (
    <div className="lander-spot">
      <div className="container spot-layout">
        <section className="spot-photos" data-testid="lander-profiles">
          <Link to={signup} className="spot-main" data-testid="lander-profile">
            <LanderPhoto profile={profile} eager />
            <span className="spot-label">{t('landers.landing3.spotlight')}</span>
          </Link>
          {locked > 0 && (
            <Link to={signup} className="spot-locked" data-testid="spot-locked">
              <Icon name="lock" size={20} /> {t('landers.landing3.more_photos', { count: locked, name: profile.name })}
            </Link>
          )}
        </section>
        <section className="spot-info">
          <h1>{profile.name}, <span>{profile.age}</span></h1>
          <p className="spot-place"><Icon name="pin" size={16} /> {place(profile)}</p>
          {profile.fictional && <FictionalNotice />}
          {profile.about && <p className="spot-about">“{profile.about}”</p>}
          {traits.length > 0 && (
            <ul className="spot-traits">
              {traits.map(([key, value]) => <li key={key}>{attributeValueLabel(t, key, value)}</li>)}
            </ul>
          )}
          {profile.interests.length > 0 && (
            <>
              <h2>{t('member_profile.interests')}</h2>
              <ul className="spot-interests">{profile.interests.map((k) => <li key={k}>{t(`interests.${k}`)}</li>)}</ul>
            </>
          )}
          <div className="spot-actions">
            <Link to={signup} className="btn btn-lg spot-cta" data-testid="lander-signup"><Icon name="chat" size={20} /> {t('landers.video.message', { name: profile.name })}</Link>
            <Link to={signup} className="btn btn-lg spot-like" aria-label={t('landers.landing3.like', { name: profile.name })}><Icon name="heart" size={22} filled /></Link>
          </div>
          <LanderLogin className="spot-login" />
        </section>
      </div>
    </div>
  );
}
