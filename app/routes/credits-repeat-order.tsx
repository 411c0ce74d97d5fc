import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Spinner from 'react-bootstrap/Spinner';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { Link, useNavigate, useRevalidator } from 'react-router';
import type { Order } from '#common/api-types.ts';
import type { Route } from './+types/credits-repeat-order';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { api, ApiError, newIdempotencyKey } from '../lib/api.ts';
import { useUser } from '../lib/user.ts';
import { PackageList } from '../features/credits/PackageList.tsx';
import { pageMeta } from '../lib/seo.ts';
import { withReturn } from '../lib/return-path.ts';
import { safeReturnPath } from '#common/schemas.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname + url.search);
  const [catalogue, mandates] = await Promise.all([
    ctx.services.payments.catalogue(member, { visitorCountry: null }), ctx.services.payments.mandates(member),
  ]);
  // Bought from a conversation (the chat's credits item): the payment's status page leads back there.
  return { ...catalogue, mandates, returnTo: safeReturnPath(url.searchParams.get('return')) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'repeat_order.title', noindex: true });
}

/**
 * Repeat order: one click buys a bundle on a stored payment method (a mandate), then the payment status
 * page shows the outcome. The withdrawal consent sits above the buy buttons: every order is a new contract. Stored methods are listed here and cancelled in one click.
 */
export default function RepeatOrder({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const mandates = loaderData.mandates;
  const usable = mandates.filter((m) => m.status === 'valid');
  const [chosen, setChosen] = useState<number | null>(usable[0]?.id ?? null);
  const mandateId = usable.some((m) => m.id === chosen) ? chosen : usable[0]?.id ?? null;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Each repeat order is a new contract: the withdrawal consent is asked again (one tick, then one click).
  const [consent, setConsent] = useState(false);
  const [consentMissing, setConsentMissing] = useState(false);
  // One key per bundle and stored method: a double click or a retried request charges once.
  const keys = useRef(new Map<string, string>());

  const buy = async (packageId: number) => {
    if (mandateId === null) return;
    if (!consent) {
      setConsentMissing(true);
      document.getElementById('repeat-withdrawal-consent')?.focus();
      return;
    }
    const choice = `${packageId}:${mandateId}`;
    if (!keys.current.has(choice)) keys.current.set(choice, newIdempotencyKey());
    setBusy(`buy:${packageId}`);
    setError(null);
    try {
      const result = await api<{ order: Order }>('/api/repeat-order.php', {
        method: 'POST', body: { package_id: packageId, mandate_id: mandateId, withdrawal_consent: true }, idempotencyKey: keys.current.get(choice),
      });
      keys.current.delete(choice);
      await navigate(withReturn(`/credits/${encodeURIComponent(result.order.id)}`, loaderData.returnTo));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      setBusy(null);
      void revalidator.revalidate();
    }
  };

  const cancel = async (id: number) => {
    setBusy(`cancel:${id}`);
    setError(null);
    try {
      await api(`/api/mandates.php?id=${id}`, { method: 'DELETE' });
      await revalidator.revalidate();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="container py-4">
      <h1 className="h3">{t('repeat_order.title')}</h1>
      {user && <p data-testid="credit-balance">{t('credits.balance', { count: user.credits })}</p>}
      {error && <Alert variant="danger" data-testid="repeat-order-error">{error}</Alert>}

      {mandates.length === 0 ? (
        <Alert variant="info" data-testid="no-mandates">
          <p className="mb-2">{t('repeat_order.none')}</p>
          <Link to={withReturn('/credits', loaderData.returnTo)} className="btn btn-primary btn-sm" data-testid="to-credits">{t('repeat_order.buy_and_keep')}</Link>
        </Alert>
      ) : (
        <>
          <p className="text-muted">{t('repeat_order.lead')}</p>
          <Card className="mb-4 shadow-sm max-w-560">
            <Card.Header className="fw-semibold">{t('repeat_order.stored_methods')}</Card.Header>
            <ListGroup variant="flush" data-testid="mandates">
              {mandates.map((m) => (
                <ListGroup.Item key={m.id} className="d-flex align-items-center gap-2 flex-wrap" data-testid="mandate">
                  <Form.Check
                    type="radio" name="mandate" id={`mandate-${m.id}`} disabled={m.status !== 'valid'}
                    checked={mandateId === m.id} onChange={() => setChosen(m.id)}
                    label={<><span className="fw-semibold">{t(`payment_methods.${m.method}`, { defaultValue: m.method })}</span> <span className="text-muted">{m.details}</span></>}
                  />
                  {m.status === 'pending' && <span className="badge text-bg-light">{t('repeat_order.pending')}</span>}
                  <Button
                    variant="link" size="sm" className="ms-auto text-danger p-0" disabled={busy !== null}
                    onClick={() => void cancel(m.id)} data-testid="cancel-mandate"
                  >
                    {busy === `cancel:${m.id}` ? <Spinner animation="border" size="sm" /> : t('repeat_order.cancel')}
                  </Button>
                </ListGroup.Item>
              ))}
            </ListGroup>
          </Card>
          {usable.length > 0 && (
            <FormField
              id="repeat-withdrawal-consent" as="checkbox" className="mb-3" label={t('credits.withdrawal_consent')} required
              error={consentMissing && !consent ? t('errors.withdrawal_consent_required') : null}
              checked={consent} onChange={(e) => { setConsent(e.target.checked); setConsentMissing(false); }} data-testid="withdrawal-consent"
            />
          )}
          {usable.length > 0 && (
            <PackageList
              packages={loaderData.packages}
              messageCredits={loaderData.messageCredits}
              action={(p) => (
                <Button variant={p.popular ? 'secondary' : 'primary'} className="w-100" disabled={busy !== null} onClick={() => void buy(p.id)} data-testid="repeat-buy">
                  {busy === `buy:${p.id}` ? <Spinner animation="border" size="sm" /> : t('repeat_order.buy')}
                </Button>
              )}
            />
          )}
          <p className="small text-muted mt-3">
            <Link to={withReturn('/credits', loaderData.returnTo)} data-testid="other-method">{t('repeat_order.other_method')}</Link>
          </p>
        </>
      )}
    </div>
  );
}
