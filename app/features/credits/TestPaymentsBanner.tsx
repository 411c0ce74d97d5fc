import { useTranslation } from '../../lib/i18n.ts';
import { useMatches } from 'react-router';
import type { TestPaymentsMode } from '#server/payments/payments.service.ts';

/** Pages where members buy or pay: they always say when payments are only simulated. */
const PAYMENT_PAGES = new Set(['credits', 'premium', 'credits-repeat-order', 'credits-id-paymentmethod', 'pricing', 'test-checkout']);

/**
 * While the test provider takes the payments, nobody may think money changes hands: on the payment
 * pages always, and on every page when the site is public (the operator turned simulated payments on).
 */
export function TestPaymentsBanner({ mode }: { mode: TestPaymentsMode }) {
  const { t } = useTranslation();
  const routeId = useMatches().at(-1)?.id;
  const shown = mode === 'public' || (mode === 'local' && routeId !== undefined && PAYMENT_PAGES.has(routeId));
  if (!shown) return null;
  return (
    <div className="test-payments-banner" role="status" data-testid="test-payments-banner">
      <span className="badge text-bg-dark me-2">{t('test_checkout.badge')}</span>
      {t('test_payments.banner')}
    </div>
  );
}
