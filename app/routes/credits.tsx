import { useRef, useState } from 'react';
import { Alert, Button, Form, Spinner } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { PAYMENT_METHODS } from '#common/constants.ts';
import type { Route } from './+types/credits';
import { requestContext } from '../context.ts';
import { requireMemberId } from '#server/http/page-guards.server.ts';
import { methodsFor, packagesFor } from '#server/payments/payment-pages.server.ts';
import { api, ApiError, newIdempotencyKey } from '../lib/api.ts';
import { useUser } from '../lib/user.ts';
import { PackageList } from '../features/credits/PackageList.tsx';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  requireMemberId(ctx, url.pathname);
  // The page still shows the bundles while the provider does not answer; buying then says so.
  const methods = await methodsFor(ctx).catch(() => null);
  return { ...(await packagesFor(ctx)), methods };
}

/** The provider's methods that this app knows how to name, in the provider's order. */
function known<T extends { id: string }>(methods: T[] | undefined): T[] {
  return (methods ?? []).filter((m) => (PAYMENT_METHODS as readonly string[]).includes(m.id));
}

/** Credits, premium and repeat order: choose a bundle and a payment method, then pay at the provider. */
export default function Credits({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const user = useUser();
  const routeId = useMatches().at(-1)?.id;
  const methods = known(loaderData.methods?.methods);
  const recurringMethods = known(loaderData.methods?.recurring);
  const [method, setMethod] = useState<string>(methods[0]?.id ?? 'ideal');
  const [keep, setKeep] = useState(false);
  const canKeep = recurringMethods.some((m) => m.id === method);
  const recurring = keep && canKeep;
  const [buying, setBuying] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // One key per chosen bundle: a double click or a retried request creates one order.
  const keys = useRef(new Map<string, string>());

  const buy = async (packageId: number) => {
    const choice = `${packageId}:${method}:${recurring}`;
    if (!keys.current.has(choice)) keys.current.set(choice, newIdempotencyKey());
    setBuying(packageId);
    setError(null);
    try {
      const result = await api<{ checkout_url: string }>('/api/order.php', {
        method: 'POST', body: { package_id: packageId, paymentmethod: method, recurring }, idempotencyKey: keys.current.get(choice),
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
      {!loaderData.methods && <Alert variant="warning" data-testid="methods-unavailable">{t('errors.payment_provider_unavailable')}</Alert>}
      <Form.Group className="mb-2" style={{ maxWidth: 320 }} controlId="payment-method">
        <Form.Label>{t('credits.payment_method')}</Form.Label>
        <Form.Select value={method} onChange={(e) => setMethod(e.target.value)} data-testid="payment-method">
          {methods.map((m) => <option key={m.id} value={m.id}>{t(`payment_methods.${m.id}`)}</option>)}
        </Form.Select>
      </Form.Group>
      {canKeep && (
        <Form.Check
          id="keep-method" className="mb-4" checked={keep} onChange={(e) => setKeep(e.target.checked)}
          label={t('credits.keep_method')} data-testid="keep-method"
        />
      )}
      {!canKeep && <div className="mb-4" />}
      <PackageList
        packages={loaderData.packages}
        messageCredits={loaderData.messageCredits}
        action={(p) => (
          <Button
            variant={p.popular ? 'secondary' : 'primary'} className="w-100" data-testid="buy-package"
            disabled={buying !== null || !methods.find((m) => m.id === method)?.package_ids.includes(p.id)} onClick={() => void buy(p.id)}
          >
            {buying === p.id ? <Spinner animation="border" size="sm" /> : t('credits.buy')}
          </Button>
        )}
      />
    </div>
  );
}
