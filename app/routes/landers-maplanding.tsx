import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/landers-maplanding';
import { requestContext } from '../context.ts';
import { mapLanderPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { countryName } from '../lib/format.ts';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref, usePlace } from '../features/landers/shared.tsx';
import { Icon } from '../features/landers/icons.tsx';
import { FictionalNotice } from '../components/FictionalNotice.tsx';
import '../features/landers/maplanding.scss';
import { pageMeta } from '../lib/seo.ts';

export const handle: LanderHandle = { lander: 'maplanding' };

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await mapLanderPage(ctx, { slug: params.slug, search: url.search });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.map.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

/** A pin's place on the map (whole per cents below 100): a class per digit of each axis (maplanding.scss). */
function pinPlace({ x, y }: { x: number; y: number }): string {
  const digits = (axis: 'x' | 'y', at: number) => `map-${axis}t-${Math.floor(at / 10)} map-${axis}u-${at % 10}`;
  return `${digits('x', x)} ${digits('y', y)}`;
}

/** A night-blue dot map of the visitor's country with members pinned where they live, and a list of them. */
export default function MapLander({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const place = usePlace();
  const { map, profiles, search } = loaderData;
  const nearby = profiles.filter((p) => p.country === map.country);
  const list = [...nearby, ...profiles.filter((p) => p.country !== map.country)].slice(0, 8);
  return (
    <div className="lander-map">
      <section className="map-hero">
        <div className="container map-layout">
          <div className="map-copy">
            <p className="map-kicker"><span className="map-live" aria-hidden="true" /> {t('landers.map.kicker')} · {countryName(map.country, i18n.language as Language)}</p>
            <h1>{t('landers.map.title')}</h1>
            <p className="map-lead">{t('landers.map.lead')}</p>
            <Link to={signupHref(search)} className="btn btn-lg map-cta" data-testid="lander-signup">{t('landers.map.cta')}</Link>
            <LanderLogin className="map-login" />
          </div>
          {/* The frame's proportions by country, each pin's place by per cent: classes of maplanding.scss (docs/decisions/052). */}
          <figure className={`map-canvas map-frame-${map.country.toLowerCase()}`}>
            <img src={map.image} alt="" width={Math.round(map.width * 14)} height={Math.round(map.height * 14)} className="map-dots" fetchPriority="high" />
            <ul className="map-pins" data-testid="lander-profiles">
              {map.pins.map((pin) => {
                const first = pin.profiles[0];
                return (
                  <li key={pin.region ?? '-'} className={pinPlace(pin)}>
                    <Link to={memberSignupHref(first.id, search)} className="map-pin" data-testid="map-pin">
                      <span className="visually-hidden">{t('landers.map.pin_label', { name: first.name, age: first.age, place: place(first) })}</span>
                      <LanderPhoto profile={first} size="thumb" eager alt="" />
                      {pin.profiles.length > 1 && <span className="map-pin-more" aria-hidden="true">+{pin.profiles.length - 1}</span>}
                    </Link>
                  </li>
                );
              })}
            </ul>
            <figcaption>{t('landers.map.legend')}</figcaption>
          </figure>
        </div>
      </section>
      <section className="container map-list-wrap">
        <h2>{t('landers.map.list_title')}</h2>
        <ul className="map-list">
          {list.map((p) => (
            <li key={p.id}>
              <Link to={memberSignupHref(p.id, search)} className="map-row" data-testid="lander-profile">
                <LanderPhoto profile={p} size="thumb" />
                <span className="map-row-text">
                  <strong>{p.name}, {p.age}</strong>
                  <span><Icon name="pin" size={14} /> {place(p)}</span>
                  {p.fictional && <FictionalNotice compact />}
                </span>
                <span className="map-row-go" aria-hidden="true"><Icon name="chat" size={18} /></span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
