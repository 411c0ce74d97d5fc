import { useRef, useState } from 'react';
import { Alert, Button, Form, Spinner } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { PAYMENT_METHODS, type PaymentMethod } from '#common/constants.ts';
import type { Route } from './+types/credits';
import { requestContext } from '../context.ts';
import { requireMemberId } from '#server/http/page-guards.server.ts';
import { packagesFor } from '#server/payments/payment-pages.server.ts';
import { api, ApiError, newIdempotencyKey } from '../lib/api.ts';
import { useUser } from '../lib/user.ts';
import { PackageList } from '../features/credits/PackageList.tsx';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  requireMemberId(ctx, url.pathname);
  return packagesFor(ctx);
}

/** Credits, premium and repeat order: choose a bundle and a payment method, then pay at the provider. */
export default function Credits({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const user = useUser();
  const routeId = useMatches().at(-1)?.id;
  const [method, setMethod] = useState<PaymentMethod>('ideal');
  const [buying, setBuying] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // One key per chosen bundle: a double click or a retried request creates one order.
  const keys = useRef(new Map<string, string>());

  const buy = async (packageId: number) => {
    const choice = `${packageId}:${method}`;
    if (!keys.current.has(choice)) keys.current.set(choice, newIdempotencyKey());
    setBuying(packageId);
    setError(null);
    try {
      const result = await api<{ checkout_url: string }>('/api/order.php', {
        method: 'POST', body: { package_id: packageId, paymentmethod: method }, idempotencyKey: keys.current.get(choice),
      });
      window.location.assign(result.checkout_url);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      setBuying(null);
    }
  };

  const heading = routeId === 'premium' && !user?.paid_user ? t('credits.premium_title') : t('credits.title');
  return (
    <div className="container py-4">
      <h1 className="h3">{heading}</h1>
      <p className="text-muted">
        {routeId === 'premium' && !user?.paid_user ? t('credits.premium_lead') : t('credits.lead', { count: loaderData.messageCredits })}
      </p>
      {user && <p data-testid="credit-balance">{t('credits.balance', { count: user.credits })}</p>}
      {error && <Alert variant="danger">{error}</Alert>}
      <Form.Group className="mb-4" style={{ maxWidth: 320 }} controlId="payment-method">
        <Form.Label>{t('credits.payment_method')}</Form.Label>
        <Form.Select value={method} onChange={(e) => setMethod(e.target.value as PaymentMethod)} data-testid="payment-method">
          {PAYMENT_METHODS.map((m) => <option key={m} value={m}>{t(`payment_methods.${m}`)}</option>)}
        </Form.Select>
      </Form.Group>
      <PackageList
        packages={loaderData.packages}
        messageCredits={loaderData.messageCredits}
        action={(p) => (
          <Button variant={p.popular ? 'secondary' : 'primary'} className="w-100" disabled={buying !== null} onClick={() => void buy(p.id)} data-testid="buy-package">
            {buying === p.id ? <Spinner animation="border" size="sm" /> : t('credits.buy')}
          </Button>
        )}
      />
    </div>
  );
}
