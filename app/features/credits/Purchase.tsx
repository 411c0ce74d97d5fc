import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { Alert } from '../../components/Alert.tsx';
import { FormField } from '../../components/FormField.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { Form as RouterForm, Link, useLocation, useRevalidator } from 'react-router';
import { PAYMENT_METHODS } from '#common/constants.ts';
import type { Language } from '#common/languages.ts';
import type { PurchaseData } from '#server/payments/purchase-form.server.ts';
import { api, ApiError, newIdempotencyKey } from '../../lib/api.ts';
import { formatMoney } from '../../lib/format.ts';
import { withReturn } from '../../lib/return-path.ts';
import { PackageList } from './PackageList.tsx';

/** The provider's methods that this app knows how to name, in the provider's order. */
function known<T extends { id: string }>(methods: T[] | undefined): T[] {
  return (methods ?? []).filter((m) => (PAYMENT_METHODS as readonly string[]).includes(m.id));
}

/** The member's discount: the one that applies, or a field to enter a code (a plain GET form, also without JavaScript). */
function DiscountCode({ data }: { data: PurchaseData }) {
  const { t } = useTranslation();
  const location = useLocation();
  const { code } = data;
  if (code) {
    return (
      <Alert variant={code.personal ? 'warning' : 'success'} className="d-flex flex-wrap align-items-center gap-2" data-testid="discount-applied">
        <span className="me-auto">
          {code.personal ? t('discounts.personal_applied', { percent: code.percentage }) : t('discounts.applied', { code: code.code, percent: code.percentage })}
        </span>
        <Link to={location.pathname} className="alert-link small" data-testid="discount-remove">{t('discounts.remove')}</Link>
      </Alert>
    );
  }
  return (
    <RouterForm method="get" className="mb-3 max-w-420" data-testid="discount-form">
      <FormField id="discount-code" as="custom" label={t('discounts.code_label')} error={data.codeError} errorTestId="discount-error">
        {(control) => (
          <InputGroup>
            <Form.Control
              {...control} name="discount" defaultValue={data.codeRequested ?? ''} placeholder={t('discounts.code_placeholder')}
              maxLength={32} autoComplete="off" autoCapitalize="characters" data-testid="discount-input"
            />
            <Button type="submit" variant="outline-primary" data-testid="discount-apply">{t('discounts.apply')}</Button>
          </InputGroup>
        )}
      </FormField>
    </RouterForm>
  );
}

/**
 * Choose a payment method the site's provider offers (and keep it for one-click repeat orders), agree that
 * delivery starts at once (the EU right of withdrawal then lapses; required), and buy a bundle: the order
 * goes to the server with the price shown (a price that changed meanwhile is refused, never charged) and the
 * member to the provider's checkout. Each buy button says what it costs, discount included.
 */
export function Purchase({ data, highlight }: { data: PurchaseData; highlight?: { id: number; label: string } | null }) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const { prices, code } = data;
  const methods = known(data.methods?.methods);
  const recurringMethods = known(data.methods?.recurring);
  const initial = data.choice.initialMethod && methods.some((m) => m.id === data.choice.initialMethod) ? data.choice.initialMethod : methods[0]?.id;
  const [method, setMethod] = useState<string>(initial ?? 'ideal');
  const [keep, setKeep] = useState(false);
  const canKeep = recurringMethods.some((m) => m.id === method);
  const recurring = keep && canKeep;
  const [consent, setConsent] = useState(false);
  const [consentMissing, setConsentMissing] = useState(false);
  const [buying, setBuying] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The member's code is held by a checkout they left open: the way to that payment (finish or cancel it).
  const [heldElsewhere, setHeldElsewhere] = useState(false);
  // One key per choice: a double click or a retried request creates one order.
  const keys = useRef(new Map<string, string>());
  const lang = i18n.language as Language;

  const buy = async (packageId: number) => {
    if (!consent) {
      setConsentMissing(true);
      document.getElementById('withdrawal-consent')?.focus();
      return;
    }
    const price = prices[packageId];
    const choice = `${packageId}:${method}:${recurring}:${price.amount}:${price.discount?.code ?? ''}`;
    if (!keys.current.has(choice)) keys.current.set(choice, newIdempotencyKey());
    setBuying(packageId);
    setError(null);
    try {
      const result = await api<{ checkout_url: string }>('/api/order.php', {
        method: 'POST',
        body: {
          package_id: packageId, paymentmethod: method, recurring, withdrawal_consent: true, amount: price.amount,
          ...(price.discount ? { discount_code: price.discount.code } : {}),
          ...(data.returnTo ? { return_to: data.returnTo } : {}),
        },
        idempotencyKey: keys.current.get(choice),
      });
      window.location.assign(result.checkout_url);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      setHeldElsewhere(err instanceof ApiError && err.code === 'discount_in_use');
      if (err instanceof ApiError && err.code === 'price_changed') void revalidator.revalidate();
      setBuying(null);
    }
  };

  return (
    <div data-testid="purchase">
      {error && (
        <Alert variant="danger" data-testid="purchase-error">
          {error}
          {heldElsewhere && <> <Link to="/transactions" className="alert-link" data-testid="purchase-error-transactions">{t('credits.open_transactions')}</Link></>}
        </Alert>
      )}
      {!data.methods && <Alert variant="warning" data-testid="methods-unavailable">{t('errors.payment_provider_unavailable')}</Alert>}
      <DiscountCode data={data} />
      <div className="row g-3 mb-4 align-items-start">
        <div className="col-12 col-md-4">
          <FormField id="payment-method" as="select" label={t('credits.payment_method')} value={method} onChange={(e) => setMethod(e.target.value)} data-testid="payment-method">
            {methods.map((m) => <option key={m.id} value={m.id}>{t(`payment_methods.${m.id}`)}</option>)}
          </FormField>
          {canKeep && (
            <Form.Check
              id="keep-method" className="mt-2" checked={keep} onChange={(e) => setKeep(e.target.checked)}
              label={t('credits.keep_method')} data-testid="keep-method"
            />
          )}
        </div>
        <div className="col-12 col-md-8 pt-md-4">
          <FormField
            id="withdrawal-consent" as="checkbox" label={t('credits.withdrawal_consent')} required
            error={consentMissing && !consent ? t('errors.withdrawal_consent_required') : null}
            checked={consent} onChange={(e) => { setConsent(e.target.checked); setConsentMissing(false); }} data-testid="withdrawal-consent"
          />
        </div>
      </div>
      <PackageList
        packages={data.packages} messageCredits={data.messageCredits} highlight={highlight} prices={prices}
        note={(p) => code && code.minimum > p.amount && prices[p.id].discount?.code !== code.code ? (
          <p className="small text-muted" data-testid="discount-minimum">
            {t('discounts.minimum', { code: code.code, amount: formatMoney(code.minimum, code.currency, lang) })}
          </p>
        ) : null}
        action={(p) => (
          <>
          <Button
            variant={highlight?.id === p.id || (!highlight && p.popular) ? 'secondary' : 'primary'} className="w-100" data-testid="buy-package"
            disabled={buying !== null || !methods.find((m) => m.id === method)?.package_ids.includes(p.id)} onClick={() => void buy(p.id)}
          >
            {buying === p.id ? <Spinner animation="border" size="sm" /> : t('credits.buy_for', { price: formatMoney(prices[p.id]?.amount ?? p.amount, p.currency, lang) })}
          </Button>
          {/* SEPA direct debit (euros only) has its own form with an SMS code; it leads back where a purchase began, too. */}
          {p.currency === 'EUR' && (
            <Link to={withReturn(`/directdebit?package=${p.id}${code ? `&discount=${encodeURIComponent(code.code)}` : ''}`, data.returnTo)} className="d-block small text-center mt-2" data-testid="pay-direct-debit">
              {t('credits.pay_direct_debit')}
            </Link>
          )}
          </>
        )}
      />
    </div>
  );
}
