import { useTranslation } from '../lib/i18n.ts';
import { Link, redirect } from 'react-router';
import type { Route } from './+types/index';
import { requestContext } from '../context.ts';
import { ProfileCard } from '../components/ProfileCard.tsx';
import { cdnUrl, nicheHeroImage, nicheOf } from '#common/site-theme.ts';
import type { HydrationHandle } from '../lib/hydrate-on-interaction.ts';

/** The home page is a visitor's landing page: it runs its code once they interact (docs/decisions/043). */
export const handle: HydrationHandle = { hydrate: 'on-interaction' };

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  if (ctx.userId) throw redirect('/members');
  // The site's niche picks who the home page shows, its words and its picture (docs/decisions/038).
  const page = await ctx.services.search.showcase(ctx.actor);
  return {
    profiles: page.profiles.filter((p) => p.main_image).slice(0, 8), total: page.numResults ?? 0,
    niche: nicheOf(ctx.site.niche), hero: cdnUrl(ctx.site.cdnPrefix, nicheHeroImage(ctx.site.niche)),
  };
}

export default function Index({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { niche } = loaderData;
  return (
    <>
      <section className="hero py-5" data-niche={niche}>
        <div className="container py-md-4 row mx-auto align-items-center">
          <div className="col-md-7">
            <h1 className="display-5 fw-bold" data-testid="hero-title">{niche === 'default' ? t('index.title') : t(`index.niche.${niche}.title`)}</h1>
            <p className="lead">{niche === 'default' ? t('index.lead') : t(`index.niche.${niche}.lead`)}</p>
            <div className="d-flex gap-2 flex-wrap">
              <Link to="/signup" className="btn btn-light btn-lg" data-testid="cta-signup">{t('index.cta_signup')}</Link>
              <Link to="/login" className="btn btn-outline-light btn-lg">{t('index.cta_login')}</Link>
            </div>
          </div>
          <div className="col-md-5 text-center mt-4 mt-md-0">
            <img src={loaderData.hero} alt="" className="hero-art" width={360} height={300} data-testid="hero-art" />
          </div>
        </div>
      </section>
      <section className="container py-5">
        <h2 className="h4 mb-3">{t('index.members_online', { count: loaderData.total })}</h2>
        <div className="row g-3">
          {loaderData.profiles.map((p) => (
            <div key={p.id} className="col-6 col-md-3">
              <ProfileCard profile={p} />
            </div>
          ))}
        </div>
        <div className="row g-4 mt-4">
          {(['free', 'match', 'chat'] as const).map((k) => (
            <div key={k} className="col-md-4">
              <h3 className="h5">{t(`index.feature_${k}_title`)}</h3>
              <p className="text-muted">{t(`index.feature_${k}_text`)}</p>
            </div>
          ))}
        </div>
      </section>
    </>
  );
}
