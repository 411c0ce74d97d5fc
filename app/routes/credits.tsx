import { useRef, useState } from 'react';
import { Alert, Button, Form, InputGroup, Spinner } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Form as RouterForm, Link, useLocation, useMatches, useRevalidator } from 'react-router';
import type { Language } from '#common/languages.ts';
import { PAYMENT_METHODS } from '#common/constants.ts';
import type { Route } from './+types/credits';
import { requestContext } from '../context.ts';
import { requireMemberId } from '#server/http/page-guards.server.ts';
import { methodsFor, packagesFor } from '#server/payments/payment-pages.server.ts';
import { discountsFor } from '#server/payments/discount-pages.server.ts';
import { api, ApiError, newIdempotencyKey } from '../lib/api.ts';
import { useUser } from '../lib/user.ts';
import { PackageList } from '../features/credits/PackageList.tsx';
import { formatMoney } from '../lib/format.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const userId = requireMemberId(ctx, url.pathname + url.search);
  const base = await packagesFor(ctx);
  // The page still shows the bundles while the provider does not answer; buying then says so.
  const methods = await methodsFor(ctx).catch(() => null);
  return { ...base, methods, ...(await discountsFor(ctx, userId, base.packages, url)) };
}

/** The provider's methods that this app knows how to name, in the provider's order. */
function known<T extends { id: string }>(methods: T[] | undefined): T[] {
  return (methods ?? []).filter((m) => (PAYMENT_METHODS as readonly string[]).includes(m.id));
}

/** Credits, premium and repeat order: choose a bundle and a payment method, then pay at the provider. */
export default function Credits({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const location = useLocation();
  const revalidator = useRevalidator();
  const { prices, code } = loaderData;
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
    const price = prices[packageId];
    // The price on the page goes with the order: a price that changed meanwhile is refused, never charged.
    const choice = `${packageId}:${method}:${recurring}:${price.amount}:${price.discount?.code ?? ''}`;
    if (!keys.current.has(choice)) keys.current.set(choice, newIdempotencyKey());
    setBuying(packageId);
    setError(null);
    try {
      const result = await api<{ checkout_url: string }>('/api/order.php', {
        method: 'POST',
        body: { package_id: packageId, paymentmethod: method, recurring, amount: price.amount, ...(price.discount ? { discount_code: price.discount.code } : {}) },
        idempotencyKey: keys.current.get(choice),
      });
      window.location.assign(result.checkout_url);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      if (err instanceof ApiError && err.code === 'price_changed') void revalidator.revalidate();
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
      {code && (
        <Alert variant={code.personal ? 'warning' : 'success'} className="d-flex flex-wrap align-items-center gap-2" data-testid="discount-applied">
          <span className="me-auto">
            {code.personal ? t('discounts.personal_applied', { percent: code.percentage }) : t('discounts.applied', { code: code.code, percent: code.percentage })}
          </span>
          <Link to={location.pathname} className="alert-link small" data-testid="discount-remove">{t('discounts.remove')}</Link>
        </Alert>
      )}
      {!code && (
        // A plain GET form: the page itself checks the code and prices every bundle with it, also without JavaScript.
        <RouterForm method="get" className="mb-3" style={{ maxWidth: 420 }} data-testid="discount-form">
          <Form.Label htmlFor="discount-code">{t('discounts.code_label')}</Form.Label>
          <InputGroup hasValidation>
            <Form.Control
              id="discount-code" name="discount" defaultValue={loaderData.codeRequested ?? ''} placeholder={t('discounts.code_placeholder')}
              maxLength={32} autoComplete="off" autoCapitalize="characters" isInvalid={Boolean(loaderData.codeError)} data-testid="discount-input"
            />
            <Button type="submit" variant="outline-primary" data-testid="discount-apply">{t('discounts.apply')}</Button>
            {loaderData.codeError && <Form.Control.Feedback type="invalid" data-testid="discount-error">{loaderData.codeError}</Form.Control.Feedback>}
          </InputGroup>
        </RouterForm>
      )}
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
        prices={prices}
        note={(p) => code && code.minimum > p.amount && prices[p.id].discount?.code !== code.code ? (
          <p className="small text-muted" data-testid="discount-minimum">
            {t('discounts.minimum', { code: code.code, amount: formatMoney(code.minimum, code.currency, i18n.language as Language) })}
          </p>
        ) : null}
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
