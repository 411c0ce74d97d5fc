import { useTranslation } from 'react-i18next';
import { Link, redirect } from 'react-router';
import type { Route } from './+types/index';
import { requestContext } from '../context.ts';
import { ProfileCard } from '../components/ProfileCard.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  if (ctx.userId) throw redirect('/members');
  const page = await ctx.services.search.search(null, { min_age: 18, max_age: 99 });
  return { profiles: page.profiles.filter((p) => p.main_image).slice(0, 8), total: page.numResults ?? 0 };
}

export default function Index({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <section className="hero py-5">
        <div className="container py-md-5">
          <h1 className="display-5 fw-bold">{t('index.title')}</h1>
          <p className="lead col-md-8">{t('index.lead')}</p>
          <div className="d-flex gap-2 flex-wrap">
            <Link to="/signup" className="btn btn-light btn-lg" data-testid="cta-signup">{t('index.cta_signup')}</Link>
            <Link to="/login" className="btn btn-outline-light btn-lg">{t('index.cta_login')}</Link>
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
