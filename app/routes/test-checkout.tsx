import { useState } from 'react';
import { Alert, Button, Card } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { data } from 'react-router';
import { isReference } from '#common/input.ts';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/test-checkout';
import { requestContext } from '../context.ts';
import { orNotFound, requireMemberId } from '#server/http/page-guards.server.ts';
import { api, ApiError } from '../lib/api.ts';
import { formatMoney } from '../lib/format.ts';
import { pageMeta } from '../lib/seo.ts';

/** Only the member who placed the order sees its checkout; nobody does where simulated payments are refused. */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  if (!isReference(params.ref)) throw data(null, { status: 404 });
  const userId = requireMemberId(ctx, url.pathname);
  const checkout = await orNotFound(ctx.services.payments.testCheckout(userId, params.ref));
  return { id: checkout.id, amount: checkout.amountCents, currency: checkout.currency, description: checkout.description, method: checkout.method, status: checkout.status, keepsMandate: checkout.sequenceType === 'first' };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'test_checkout.title', noindex: true });
}

const OUTCOMES = [
  ['paid', 'success'],
  ['failed', 'danger'],
  ['canceled', 'outline-secondary'],
  ['pending', 'outline-primary'],
] as const;

/** The test provider's hosted checkout: clearly a test; the payer chooses what the payment does. */
export default function TestCheckout({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const choose = async (outcome: string) => {
    setBusy(true);
    try {
      const r = await api<{ redirect_url: string }>('/api/test-checkout.php', { method: 'POST', body: { id: loaderData.id, outcome } });
      window.location.assign(r.redirect_url);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      setBusy(false);
    }
  };
  return (
    <div className="min-vh-100 bg-light">
      <div className="test-banner" />
      <div className="container py-5" style={{ maxWidth: 520 }}>
        <Card className="shadow" data-testid="test-checkout">
          <Card.Body className="p-4">
            <span className="badge text-bg-warning mb-2">{t('test_checkout.badge')}</span>
            <h1 className="h4">{t('test_checkout.title')}</h1>
            <p className="text-muted">{t('test_checkout.explanation')}</p>
            <dl className="row">
              <dt className="col-5">{t('test_checkout.amount')}</dt>
              <dd className="col-7" data-testid="checkout-amount">{formatMoney(loaderData.amount, loaderData.currency, i18n.language as Language)}</dd>
              <dt className="col-5">{t('test_checkout.description')}</dt>
              <dd className="col-7">{loaderData.description}</dd>
              <dt className="col-5">{t('test_checkout.method')}</dt>
              <dd className="col-7">{t(`payment_methods.${loaderData.method}`)}</dd>
            </dl>
            {loaderData.keepsMandate && <Alert variant="light" className="small" data-testid="keeps-mandate">{t('test_checkout.keeps_mandate')}</Alert>}
            {error && <Alert variant="danger">{error}</Alert>}
            <div className="d-grid gap-2">
              {OUTCOMES.map(([outcome, variant]) => (
                <Button key={outcome} variant={variant} disabled={busy} onClick={() => void choose(outcome)} data-testid={`outcome-${outcome}`}>
                  {t(`test_checkout.outcome_${outcome}`)}
                </Button>
              ))}
            </div>
          </Card.Body>
        </Card>
      </div>
    </div>
  );
}
