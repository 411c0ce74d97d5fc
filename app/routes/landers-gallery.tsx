import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { Route } from './+types/landers-gallery';
import { requestContext } from '../context.ts';
import { landerPage } from '#server/landers/lander-loaders.server.ts';
import type { LanderHandle } from '../layouts/lander.tsx';
import { LanderLogin, LanderPhoto, memberSignupHref, signupHref, usePlace } from '../features/landers/shared.tsx';
import { Icon } from '../features/landers/icons.tsx';
import { FictionalNotice } from '../components/FictionalNotice.tsx';
import '../features/landers/gallery.scss';
import { pageMeta } from '../lib/seo.ts';

export const handle = { lander: 'gallery' } as const satisfies LanderHandle;

/** Thirteen open portraits (the first one large), four more behind the sign-up. */
const OPEN = 13;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const page = await landerPage(ctx, { lander: handle.lander, slug: params.slug, search: url.search, count: OPEN + 4 });
  return { ...page, title: ctx.translator.t(ctx.lang, 'landers.gallery.title') };
}

export function meta({ data, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: data?.title });
}

/** A light portrait gallery: filter chips, a grid of members, the last row veiled until sign-up. */
export default function GalleryLander({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const place = usePlace();
  const { profiles, total, capped, gender, search } = loaderData;
  const open = profiles.slice(0, OPEN);
  const veiled = profiles.slice(OPEN);
  const filters = [['', null, 'landers.gallery.filter_all'], ['/women', 'female', 'landers.gallery.filter_women'], ['/men', 'male', 'landers.gallery.filter_men']] as const;
  return (
    <div className="lander-gallery">
      <header className="gallery-head">
        <div className="container">
          <p className="gallery-kicker">{t('landers.gallery.kicker')}</p>
          <h1 className="gallery-title">{t('landers.gallery.title')}</h1>
          <p className="gallery-lead">{t(capped ? 'landers.gallery.lead_capped' : 'landers.gallery.lead', { count: total })}</p>
          <nav className="gallery-filters" aria-label={t('landers.gallery.filter_label')}>
            {filters.map(([path, g, key]) => (
              <Link key={key} to={`/landers/gallery${path}${search}`} className={`gallery-chip${gender === g ? ' active' : ''}`} aria-current={gender === g ? 'page' : undefined}>
                {t(key)}
              </Link>
            ))}
          </nav>
        </div>
      </header>
      <section className="container gallery-grid-wrap">
        <ul className="gallery-grid" data-testid="lander-profiles">
          {open.map((p, i) => (
            <li key={p.id}>
              <Link to={memberSignupHref(p.id, search)} className="gallery-card" data-testid="lander-profile">
                <LanderPhoto profile={p} eager={i < 4} />
                <span className="gallery-card-text">
                  <span className="gallery-name">{p.name}, {p.age}</span>
                  <span className="gallery-place"><Icon name="pin" size={14} /> {place(p)}</span>
                </span>
                <span className="gallery-message"><Icon name="chat" size={16} /> {t('landers.gallery.message')}</span>
              </Link>
              {p.fictional && <FictionalNotice compact />}
            </li>
          ))}
        </ul>
        {veiled.length > 0 && (
          <div className="gallery-veil">
            <ul className="gallery-grid" aria-hidden="true">
              {veiled.map((p) => <li key={p.id}><div className="gallery-card"><LanderPhoto profile={p} alt="" /></div></li>)}
            </ul>
            <div className="gallery-unlock">
              <Icon name="lock" size={28} />
              <h2>{t(capped ? 'landers.gallery.unlock_title_capped' : 'landers.gallery.unlock_title', { count: total })}</h2>
              <p>{t('landers.gallery.unlock_text')}</p>
              <Link to={signupHref(search)} className="btn btn-dark btn-lg px-4" data-testid="lander-signup">{t('index.cta_signup')}</Link>
              <LanderLogin className="d-block mt-3 small" />
            </div>
          </div>
        )}
      </section>
    </div>
  );
}
