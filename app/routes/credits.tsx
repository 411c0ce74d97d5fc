import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import type { Route } from './+types/credits';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { purchaseForm } from '#server/payments/purchase-form.server.ts';
import { useUser } from '../lib/user.ts';
import { Purchase } from '../features/credits/Purchase.tsx';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname + url.search);
  return purchaseForm(ctx, member, url);
}

/**
 * Credits: choose a bundle and a payment method, then pay at the provider. `?need=N`
 * (a member short of N credits) marks the smallest bundle that covers it; `?package=` a bundle chosen before.
 */
export default function Credits({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const user = useUser();
  const { choice } = loaderData;
  const highlight = choice.highlightId === null ? null : {
    id: choice.highlightId, label: choice.reason === 'need' ? t('credits.covers_need') : t('credits.your_choice'),
  };
  return (
    <div className="container py-4">
      <h1 className="h3">{t('credits.title')}</h1>
      <p className="text-muted">{t('credits.lead', { count: loaderData.messageCredits })}</p>
      {user && <p data-testid="credit-balance">{t('credits.balance', { count: user.credits })}</p>}
      {choice.reason === 'need' && choice.need !== null && (
        <Alert variant="info" data-testid="need-notice">{t('credits.need_notice', { count: choice.need })}</Alert>
      )}
      <Purchase data={loaderData} highlight={highlight} />
    </div>
  );
}
