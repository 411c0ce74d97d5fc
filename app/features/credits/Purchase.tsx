import { useRef, useState } from 'react';
import { Alert, Button, Form, Spinner } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import type { CreditPackage } from '#common/api-types.ts';
import { PAYMENT_METHODS, type PaymentMethod } from '#common/constants.ts';
import type { Language } from '#common/languages.ts';
import { api, ApiError, newIdempotencyKey } from '../../lib/api.ts';
import { formatMoney } from '../../lib/format.ts';
import { PackageList } from './PackageList.tsx';

/**
 * Choose a payment method, agree that delivery starts at once (the EU right of withdrawal then lapses;
 * required), and buy a bundle: the order goes to the server and the member to the provider's checkout.
 * Each buy button says what it costs.
 */
export function Purchase({ packages, messageCredits, highlight, initialMethod }: {
  packages: CreditPackage[]; messageCredits: number; highlight?: { id: number; label: string } | null; initialMethod?: PaymentMethod | null;
}) {
  const { t, i18n } = useTranslation();
  const [method, setMethod] = useState<PaymentMethod>(initialMethod ?? 'ideal');
  const [consent, setConsent] = useState(false);
  const [consentMissing, setConsentMissing] = useState(false);
  const [buying, setBuying] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // One key per chosen bundle: a double click or a retried request creates one order.
  const keys = useRef(new Map<string, string>());

  const buy = async (packageId: number) => {
    if (!consent) {
      setConsentMissing(true);
      document.getElementById('withdrawal-consent')?.focus();
      return;
    }
    const choice = `${packageId}:${method}`;
    if (!keys.current.has(choice)) keys.current.set(choice, newIdempotencyKey());
    setBuying(packageId);
    setError(null);
    try {
      const result = await api<{ checkout_url: string }>('/api/order.php', {
        method: 'POST', body: { package_id: packageId, paymentmethod: method, withdrawal_consent: true }, idempotencyKey: keys.current.get(choice),
      });
      window.location.assign(result.checkout_url);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      setBuying(null);
    }
  };

  return (
    <div data-testid="purchase">
      {error && <Alert variant="danger" data-testid="purchase-error">{error}</Alert>}
      <div className="row g-3 mb-4 align-items-start">
        <Form.Group className="col-12 col-md-4" controlId="payment-method">
          <Form.Label>{t('credits.payment_method')}</Form.Label>
          <Form.Select value={method} onChange={(e) => setMethod(e.target.value as PaymentMethod)} data-testid="payment-method">
            {PAYMENT_METHODS.map((m) => <option key={m} value={m}>{t(`payment_methods.${m}`)}</option>)}
          </Form.Select>
        </Form.Group>
        <div className="col-12 col-md-8 pt-md-4">
          <Form.Check
            id="withdrawal-consent" type="checkbox" required checked={consent} isInvalid={consentMissing && !consent}
            onChange={(e) => { setConsent(e.target.checked); setConsentMissing(false); }}
            label={t('credits.withdrawal_consent')} data-testid="withdrawal-consent"
            feedback={t('errors.withdrawal_consent_required')} feedbackType="invalid"
          />
        </div>
      </div>
      <PackageList
        packages={packages} messageCredits={messageCredits} highlight={highlight}
        action={(p) => (
          <Button variant={highlight?.id === p.id || (!highlight && p.popular) ? 'secondary' : 'primary'} className="w-100" disabled={buying !== null} onClick={() => void buy(p.id)} data-testid="buy-package">
            {buying === p.id ? <Spinner animation="border" size="sm" /> : t('credits.buy_for', { price: formatMoney(p.amount, p.currency, i18n.language as Language) })}
          </Button>
        )}
      />
    </div>
  );
}
