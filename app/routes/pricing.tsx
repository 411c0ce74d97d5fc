import { Link } from 'react-router';
import { useTranslation } from '../lib/i18n.ts';
import type { Route } from './+types/pricing';
import { requestContext } from '../context.ts';
import { visitorCountry } from '#server/http/context.ts';
import { useUser } from '../lib/user.ts';
import { PackageList } from '../features/credits/PackageList.tsx';
import { PremiumBenefits } from '../features/credits/PremiumBenefits.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  // GET /api/packages.php's use case: the bundles in the payer's currency, with what premium changes.
  return ctx.services.payments.catalogue(ctx.actor, { visitorCountry: visitorCountry(ctx) });
}

/** Prices for visitors: what is free, what the bundles cost, what premium unlocks, and a way to sign up. */
export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const user = useUser();
  const cta = user
    ? <Link to="/credits" className="btn btn-secondary btn-lg" data-testid="pricing-cta">{t('pricing.buy_cta')}</Link>
    : <Link to="/signup" className="btn btn-secondary btn-lg" data-testid="pricing-cta">{t('pricing.signup_cta')}</Link>;
  return (
    <div className="container py-4">
      <section className="text-center mb-4">
        <h1 className="h2">{t('pricing.title')}</h1>
        <p className="lead text-muted">{t('pricing.lead', { count: loaderData.messageCredits })}</p>
        {cta}
      </section>
      <h2 className="h4">{t('pricing.bundles')}</h2>
      <PackageList packages={loaderData.packages} messageCredits={loaderData.messageCredits} />
      <p className="small text-muted mt-3">{t('pricing.premium_note')}</p>
      <div className="row justify-content-center mt-4">
        <div className="col-12 col-lg-8">
          <h2 className="h4">{t('pricing.premium_title')}</h2>
          <p className="text-muted">{t('premium.claim')}</p>
          <PremiumBenefits facts={loaderData.facts} />
        </div>
      </div>
      <section className="text-center my-5">
        <p className="h5">{user ? t('pricing.member_cta_lead') : t('pricing.signup_cta_lead')}</p>
        {cta}
      </section>
    </div>
  );
}
