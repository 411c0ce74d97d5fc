import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '../lib/query.ts';
import { Ban, CheckCircle2, CreditCard, Hourglass, Loader2, XCircle } from 'lucide-react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { data, Link } from 'react-router';
import type { Order } from '#common/api-types.ts';
import { isReference } from '#common/ids.ts';
import { safeReturnPath } from '#common/schemas.ts';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/credits-id-paymentmethod';
import { requestContext } from '../context.ts';
import { orNotFound, requireMemberActor } from '#server/http/page-guards.server.ts';
import { api, ApiError } from '../lib/api.ts';
import { formatMoney } from '../lib/format.ts';
import { withReturn } from '../lib/return-path.ts';
import '../features/credits/credits.scss';

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname);
  if (!isReference(params.id)) throw data(null, { status: 404 });
  const found = await orNotFound(ctx.services.payments.order(member, params.id));
  const detail = await ctx.services.records.orderDetail(member, params.id);
  // A purchase begun in a conversation continues there (`?return=`, which the order's return address carries).
  return { ...found, packageId: detail.package_id, returnTo: safeReturnPath(url.searchParams.get('return')) };
}

type Shown = 'loading' | 'pending' | 'completed' | 'failed' | 'cancelled';
const FINAL = new Set(['completed', 'failed', 'cancelled']);
/** An open payment: the provider has not told us anything yet (the payer may still be at the checkout). */
const shownState = (status: Order['status']): Shown => (status === 'open' ? 'loading' : status);

const LOOK: Record<Shown, { icon: typeof CheckCircle2; tone: string; spin?: boolean }> = {
  loading: { icon: Loader2, tone: 'primary', spin: true },
  pending: { icon: Hourglass, tone: 'warning' },
  completed: { icon: CheckCircle2, tone: 'success' },
  failed: { icon: XCircle, tone: 'danger' },
  cancelled: { icon: Ban, tone: 'secondary' },
};

/**
 * The payment status page the provider returns to. Unfinished payments are checked again every 3 seconds
 * and can be finished (back to the checkout) or cancelled; failed and cancelled ones offer another method,
 * and a failed card payment offers a card retry or PayPal.
 */
export default function PaymentStatus({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { data: current } = useQuery({
    queryKey: ['order', loaderData.order.id],
    queryFn: async () => await api<{ order: Order; checkout_url: string | null }>(`/api/order.php?id=${encodeURIComponent(loaderData.order.id)}`),
    initialData: { order: loaderData.order, checkout_url: loaderData.checkout_url },
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.order.status) ? false : 3000),
  });
  const { order } = current;
  useEffect(() => {
    if (order.status === 'completed') void client.invalidateQueries({ queryKey: ['user'] });
  }, [order.status, client]);
  const state = shownState(order.status);
  const look = LOOK[state];
  const Icon = look.icon;
  const amount = formatMoney(order.amount, order.currency, i18n.language as Language);
  const { returnTo } = loaderData;
  const retry = (method?: string) => withReturn(`/credits?package=${loaderData.packageId}${method ? `&method=${method}` : ''}`, returnTo);

  const cancel = async () => {
    if (!window.confirm(t('payment.cancel_confirm'))) return;
    setCancelling(true);
    setError(null);
    try {
      client.setQueryData(['order', order.id], await api<{ order: Order; checkout_url: string | null }>('/api/order-cancel.php', { method: 'POST', body: { id: order.id } }));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      void client.invalidateQueries({ queryKey: ['order', order.id] });
    } finally {
      setCancelling(false);
    }
  };

  return (
    <div className="container py-4 py-md-5 max-w-620">
      <Card className={`shadow-sm text-center payment-status border-0 border-top border-4 border-${look.tone}`} data-testid="payment-status" data-status={state}>
        <Card.Body className="p-4">
          <Icon aria-hidden="true" size={56} className={`text-${look.tone} mb-3 ${look.spin ? 'spin' : ''}`} />
          <h1 className="h3 mb-2" data-testid={`payment-${state}`}>{t(`payment.heading_${state}`)}</h1>
          <p className="mb-3">{t(`payment.${state}`)}</p>
          {state === 'completed' && <p className="fw-semibold">{t('payment.credits_added', { count: order.credits })}</p>}
          <p className="text-muted small mb-4">
            {t('payment.summary', { count: order.credits, amount })} · {t(`payment_methods.${order.paymentmethod}`, { defaultValue: order.paymentmethod })}
          </p>
          {error && <Alert variant="danger" data-testid="payment-error">{error}</Alert>}
          <div className="d-grid gap-2 d-sm-flex justify-content-sm-center">
            {state === 'completed' && (
              <>
                <Link to={returnTo ?? '/members'} className="btn btn-primary" data-testid="continue">{t('payment.continue')}</Link>
                <Link to={`/transactions/${order.id}`} className="btn btn-outline-secondary" data-testid="view-transaction">{t('payment.view_receipt')}</Link>
              </>
            )}
            {(state === 'loading' || state === 'pending') && (
              <>
                {current.checkout_url && (
                  <a href={current.checkout_url} className="btn btn-primary" data-testid="finish-payment">{t('payment.finish')}</a>
                )}
                <Button variant="outline-danger" onClick={() => void cancel()} disabled={cancelling} data-testid="cancel-payment">
                  {cancelling ? <Spinner animation="border" size="sm" /> : t('payment.cancel')}
                </Button>
              </>
            )}
            {state === 'failed' && order.paymentmethod === 'creditcard' && (
              <>
                <Link to={retry('creditcard')} className="btn btn-primary d-inline-flex align-items-center justify-content-center gap-2" data-testid="retry-card">
                  <CreditCard aria-hidden="true" size={18} />{t('payment.retry_card')}
                </Link>
                <Link to={retry('paypal')} className="btn btn-outline-primary" data-testid="retry-paypal">{t('payment.retry_paypal')}</Link>
              </>
            )}
            {(state === 'cancelled' || (state === 'failed' && order.paymentmethod !== 'creditcard')) && (
              <Link to={retry()} className="btn btn-primary" data-testid="retry-payment">{t('payment.retry_other_method')}</Link>
            )}
          </div>
        </Card.Body>
      </Card>
    </div>
  );
}
