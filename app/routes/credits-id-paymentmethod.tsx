import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Spinner } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { data, Link } from 'react-router';
import type { Order } from '#common/api-types.ts';
import { isReference } from '#common/input.ts';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/credits-id-paymentmethod';
import { requestContext } from '../context.ts';
import { orNotFound, requireMemberId } from '#server/http/page-guards.server.ts';
import { api } from '../lib/api.ts';
import { formatMoney } from '../lib/format.ts';

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const userId = requireMemberId(ctx, url.pathname);
  if (!isReference(params.id)) throw data(null, { status: 404 });
  return orNotFound(ctx.services.payments.order(userId, params.id));
}

const FINAL = new Set(['completed', 'failed', 'cancelled']);

/** The payment status page the provider returns to: pending payments are checked again every 3 seconds. */
export default function PaymentStatus({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const { data: order, isFetching } = useQuery({
    queryKey: ['order', loaderData.order.id],
    queryFn: async () => (await api<{ order: Order }>(`/api/order.php?id=${encodeURIComponent(loaderData.order.id)}`)).order,
    initialData: loaderData.order,
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 3000),
  });
  useEffect(() => {
    if (order.status === 'completed') void client.invalidateQueries({ queryKey: ['user'] });
  }, [order.status, client]);
  const amount = formatMoney(order.amount, order.currency, i18n.language as Language);

  return (
    <div className="container py-5" style={{ maxWidth: 600 }}>
      <Card className="shadow-sm text-center" data-testid="payment-status" data-status={order.status}>
        <Card.Body className="p-4">
          <h1 className="h3 mb-3">{t('payment.title')}</h1>
          {order.status === 'completed' && (
            <Alert variant="success" data-testid="payment-completed">
              <strong>{t('payment.completed')}</strong>
              <div>{t('payment.credits_added', { count: order.credits })}</div>
            </Alert>
          )}
          {(order.status === 'open' || order.status === 'pending') && (
            <Alert variant="info" data-testid="payment-pending">
              {isFetching && <Spinner animation="border" size="sm" className="me-2" />}
              {t(order.status === 'open' ? 'payment.loading' : 'payment.pending')}
            </Alert>
          )}
          {(order.status === 'failed' || order.status === 'cancelled') && (
            <Alert variant="danger" data-testid="payment-failed">
              {t(order.status === 'failed' ? 'payment.failed' : 'payment.cancelled')}
            </Alert>
          )}
          <p className="text-muted">{t('payment.summary', { count: order.credits, amount })}</p>
          <div className="d-flex gap-2 justify-content-center">
            {order.status === 'completed' ? (
              <Link to="/members" className="btn btn-primary" data-testid="continue">{t('payment.continue')}</Link>
            ) : FINAL.has(order.status) ? (
              <Link to="/credits" className="btn btn-primary" data-testid="retry-payment">{t('payment.retry_other_method')}</Link>
            ) : null}
          </div>
        </Card.Body>
      </Card>
    </div>
  );
}
