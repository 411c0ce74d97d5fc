import { Crown, Sparkles } from 'lucide-react';
import Badge from 'react-bootstrap/Badge';
import { useTranslation } from '../lib/i18n.ts';
import type { Route } from './+types/premium';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { purchaseForm } from '#server/payments/purchase-form.server.ts';
import { useUser } from '../lib/user.ts';
import { Purchase } from '../features/credits/Purchase.tsx';
import { PremiumBenefits } from '../features/credits/PremiumBenefits.tsx';
import '../features/credits/credits.scss';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname + url.search);
  // The bundles come with what premium changes (the rules the services enforce).
  return purchaseForm(ctx, member, url);
}

/** Premium: the claim and what premium unlocks; a premium member sees that they are premium, and tops up here too. */
export default function Premium({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const user = useUser();
  const premium = Boolean(user?.paid_user);
  const popular = loaderData.packages.find((p) => p.popular);
  return (
    <div className="container py-4">
      {premium ? (
        <section className="premium-hero rounded-4 p-4 p-md-5 mb-4 text-white" data-testid="premium-status">
          <Badge bg="warning" text="dark" className="mb-3 d-inline-flex align-items-center gap-1"><Crown aria-hidden="true" size={14} />{t('premium.badge')}</Badge>
          <h1 className="h2">{t('premium.you_are_premium')}</h1>
          <p className="lead mb-0">{t('premium.you_are_premium_lead')}</p>
        </section>
      ) : (
        <section className="premium-hero rounded-4 p-4 p-md-5 mb-4 text-white" data-testid="premium-offer">
          <h1 className="h2 d-flex align-items-center gap-2"><Crown aria-hidden="true" />{t('premium.title')}</h1>
          <p className="premium-claim display-5 fw-bold my-3" data-testid="premium-claim">
            <Sparkles aria-hidden="true" className="me-2" />{t('premium.claim')}
          </p>
          <p className="lead mb-0">{t('premium.lead')}</p>
        </section>
      )}
      <div className="row g-4 mb-4">
        <div className="col-12 col-lg-7">
          <h2 className="h4">{premium ? t('premium.unlocked') : t('premium.what_you_get')}</h2>
          <PremiumBenefits facts={loaderData.facts} premium={premium} />
        </div>
        <div className="col-12 col-lg-5">
          <h2 className="h4">{t('premium.how')}</h2>
          <ol className="premium-steps">
            <li>{t('premium.step_choose')}</li>
            <li>{t('premium.step_pay')}</li>
            <li>{premium ? t('premium.step_topup') : t('premium.step_unlock')}</li>
          </ol>
          {user && <p className="mb-0" data-testid="credit-balance">{t('credits.balance', { count: user.credits })}</p>}
        </div>
      </div>
      <h2 className="h4">{premium ? t('premium.top_up') : t('premium.packages')}</h2>
      <Purchase
        data={loaderData}
        highlight={!premium && popular ? { id: popular.id, label: t('credits.popular') } : null}
      />
    </div>
  );
}
