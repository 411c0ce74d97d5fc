import { ChevronLeft, ChevronRight, Download, Receipt } from 'lucide-react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { data, Link } from 'react-router';
import type { LedgerEntry, TransactionOrder } from '#common/api-types.ts';
import { isReference } from '#common/ids.ts';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/transactions';
import { requestContext } from '../context.ts';
import { orNotFound, requireMemberActor } from '#server/http/page-guards.server.ts';
import { formatCount, formatDateTime, formatDelta, formatMoney } from '../lib/format.ts';
import { useTimeZone } from '../lib/time-zone.ts';
import { useUser } from '../lib/user.ts';
import { SpendCapCard } from '../features/records/SpendCapCard.tsx';
import '../features/credits/credits.scss';

/** A page number from the address; anything else is the first page. */
const pageOf = (value: string | null) => (value && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : 1);

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname + url.search);
  const { records } = ctx.services;
  if (params.id !== undefined) {
    if (!isReference(params.id)) throw data(null, { status: 404 });
    return { view: 'detail' as const, detail: await orNotFound(records.orderDetail(member, params.id)) };
  }
  const [orders, ledger, cap] = await Promise.all([
    records.orders(member, pageOf(url.searchParams.get('page'))),
    records.ledger(member, pageOf(url.searchParams.get('lpage'))),
    records.spendCap(member),
  ]);
  return { view: 'list' as const, orders, ledger, cap, query: url.searchParams.toString() };
}

const STATUS_TONE: Record<TransactionOrder['status'], string> = {
  open: 'info', pending: 'warning', completed: 'success', failed: 'danger', cancelled: 'secondary',
};

function StatusBadge({ order }: { order: TransactionOrder }) {
  const { t } = useTranslation();
  if (order.refunded_at) return <Badge bg="dark" data-testid="order-status">{t('transactions.status_refunded')}</Badge>;
  if (order.refunded_amount > 0) return <Badge bg="dark" data-testid="order-status">{t('transactions.status_partly_refunded')}</Badge>;
  return <Badge bg={STATUS_TONE[order.status]} text={order.status === 'pending' ? 'dark' : undefined} data-testid="order-status">{t(`transactions.status_${order.status}`)}</Badge>;
}

function Pager({ page, pages, param, query }: { page: number; pages: number; param: string; query: string }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  const to = (n: number) => {
    const q = new URLSearchParams(query);
    q.set(param, String(n));
    return `?${q.toString()}`;
  };
  return (
    <nav className="d-flex align-items-center justify-content-between p-2 border-top" aria-label={t('transactions.pages')} data-testid={`pager-${param}`}>
      {page > 1 ? <Link to={to(page - 1)} className="btn btn-sm btn-outline-secondary" preventScrollReset><ChevronLeft aria-hidden="true" size={16} />{t('transactions.previous')}</Link> : <span />}
      <span className="small text-muted">{t('transactions.page_of', { page, pages })}</span>
      {page < pages ? <Link to={to(page + 1)} className="btn btn-sm btn-outline-secondary" preventScrollReset>{t('transactions.next')}<ChevronRight aria-hidden="true" size={16} /></Link> : <span />}
    </nav>
  );
}

function LedgerRows({ entries }: { entries: LedgerEntry[] }) {
  const { t, i18n } = useTranslation();
  const zone = useTimeZone();
  const lang = i18n.language as Language;
  return (
    <ListGroup variant="flush">
      {entries.map((e) => (
        <ListGroup.Item key={e.id} className="d-flex justify-content-between align-items-center gap-2" data-testid="ledger-row" data-reason={e.reason}>
          <div className="min-w-0">
            <div>{t(`transactions.reason_${e.reason}`)}</div>
            <small className="text-muted">{formatDateTime(e.created_at, lang, zone)}</small>
          </div>
          <div className="text-end">
            <div className={`ledger-delta fw-semibold ${e.delta > 0 ? 'text-success' : 'text-body'}`}>{t('transactions.credits_delta', { count: Math.abs(e.delta), delta: formatDelta(e.delta, lang) })}</div>
            <small className="text-muted">{t('transactions.balance_after', { count: e.balance_after })}</small>
          </div>
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
}

function OrderDetail({ detail }: { detail: Extract<Route.ComponentProps['loaderData'], { view: 'detail' }>['detail'] }) {
  const zone = useTimeZone();
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const unfinished = detail.status === 'open' || detail.status === 'pending';
  const facts: [string, React.ReactNode][] = [
    [t('transactions.date'), formatDateTime(detail.created_at, lang, zone)],
    [t('transactions.bundle'), t('transactions.bundle_credits', { count: detail.credits })],
    [t('transactions.amount'), formatMoney(detail.amount, detail.currency, lang)],
    [t('transactions.method'), t(`payment_methods.${detail.paymentmethod}`, { defaultValue: detail.paymentmethod })],
    [t('transactions.status'), <StatusBadge key="status" order={detail} />],
    ...(detail.completed_at ? [[t('transactions.paid_at'), formatDateTime(detail.completed_at, lang, zone)] as [string, React.ReactNode]] : []),
    ...(detail.invoice_number ? [[t('transactions.invoice_number'), detail.invoice_number] as [string, React.ReactNode]] : []),
    [t('transactions.consent'), detail.withdrawal_consent_at ? t('transactions.consent_given', { date: formatDateTime(detail.withdrawal_consent_at, lang, zone) }) : t('transactions.consent_none')],
  ];
  return (
    <div className="container py-4 max-w-760" data-testid="order-detail">
      <Link to="/transactions" className="btn btn-link px-0 mb-2" data-testid="back-to-transactions"><ChevronLeft aria-hidden="true" size={18} />{t('transactions.back')}</Link>
      <h1 className="h3 d-flex align-items-center gap-2"><Receipt aria-hidden="true" />{t('transactions.order_title')}</h1>
      <p className="text-muted small text-break">{detail.id}</p>
      {(detail.refunded_at || detail.refunded_amount > 0) && (
        <Alert variant="dark" data-testid="order-refunded">
          {detail.refunded_at
            ? t('transactions.refunded_on', { date: formatDateTime(detail.refunded_at, lang, zone) })
            : t('transactions.refunded_part', { amount: formatMoney(detail.refunded_amount, detail.currency, lang), total: formatMoney(detail.amount, detail.currency, lang) })}
          {detail.refund_reason && <div className="small mt-1">{t('transactions.refund_reason', { reason: detail.refund_reason })}</div>}
        </Alert>
      )}
      <Card className="shadow-sm mb-3">
        <Card.Body>
          <dl className="row mb-0">
            {facts.map(([label, value]) => (
              <div key={label} className="col-12 d-sm-flex py-1 border-bottom">
                <dt className="col-sm-5 fw-semibold">{label}</dt>
                <dd className="col-sm-7 mb-0">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="d-flex flex-wrap gap-2 mt-3">
            {detail.invoice_number && (
              <a href={`/api/invoice.php?id=${encodeURIComponent(detail.id)}`} download className="btn btn-primary d-inline-flex align-items-center gap-2" data-testid="download-invoice">
                <Download aria-hidden="true" size={18} />{t('transactions.download_invoice')}
              </a>
            )}
            {unfinished && <Link to={`/credits/${detail.id}`} className="btn btn-outline-primary" data-testid="open-status">{t('transactions.open_status')}</Link>}
          </div>
        </Card.Body>
      </Card>
      {detail.payments.length > 0 && (
        <Card className="shadow-sm mb-3">
          <Card.Header as="h2" className="h6 mb-0">{t('transactions.payments')}</Card.Header>
          <ListGroup variant="flush">
            {detail.payments.map((p) => (
              <ListGroup.Item key={p.id} className="d-flex justify-content-between gap-2" data-testid="payment-row">
                <span className="text-break small">{p.id}</span>
                <span className="text-end small">{t(`transactions.payment_${p.status}`, { defaultValue: p.status })}<br /><span className="text-muted">{formatDateTime(p.updated_at, lang, zone)}</span></span>
              </ListGroup.Item>
            ))}
          </ListGroup>
        </Card>
      )}
      {detail.ledger.length > 0 && (
        <Card className="shadow-sm">
          <Card.Header as="h2" className="h6 mb-0">{t('transactions.ledger')}</Card.Header>
          <LedgerRows entries={detail.ledger} />
        </Card>
      )}
    </div>
  );
}

/** The member's orders, payments and credit ledger (spec route /transactions/{id?}), and their spend cap. */
export default function Transactions({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const zone = useTimeZone();
  const lang = i18n.language as Language;
  const user = useUser();
  if (loaderData.view === 'detail') return <OrderDetail detail={loaderData.detail} />;
  const { orders, ledger, cap, query } = loaderData;
  return (
    <div className="container py-4" data-testid="transactions">
      <h1 className="h3">{t('transactions.title')}</h1>
      <p className="text-muted">{t('transactions.lead')}</p>
      <div className="row g-4">
        <div className="col-12 col-lg-8 d-flex flex-column gap-4">
          <Card className="shadow-sm">
            <Card.Header as="h2" className="h5 mb-0">{t('transactions.orders')}</Card.Header>
            {orders.orders.length === 0 ? (
              <Card.Body className="text-muted" data-testid="no-orders">
                {t('transactions.no_orders')} <Link to="/credits">{t('transactions.buy_credits')}</Link>
              </Card.Body>
            ) : (
              <ListGroup variant="flush">
                {orders.orders.map((o) => (
                  <ListGroup.Item key={o.id} action as={Link} to={`/transactions/${o.id}`} className="d-flex justify-content-between align-items-center gap-2" data-testid="order-row">
                    <div className="min-w-0">
                      <div className="fw-semibold">{t('transactions.bundle_credits', { count: o.credits })}</div>
                      <small className="text-muted">{formatDateTime(o.created_at, lang, zone)} · {t(`payment_methods.${o.paymentmethod}`, { defaultValue: o.paymentmethod })}</small>
                    </div>
                    <div className="text-end">
                      <div className="fw-semibold">{formatMoney(o.amount, o.currency, lang)}</div>
                      <StatusBadge order={o} />
                    </div>
                  </ListGroup.Item>
                ))}
              </ListGroup>
            )}
            <Pager page={orders.page} pages={orders.pages} param="page" query={query} />
          </Card>
          <Card className="shadow-sm">
            <Card.Header as="h2" className="h5 mb-0">{t('transactions.ledger')}</Card.Header>
            {ledger.entries.length === 0
              ? <Card.Body className="text-muted">{t('transactions.no_ledger')}</Card.Body>
              : <LedgerRows entries={ledger.entries} />}
            <Pager page={ledger.page} pages={ledger.pages} param="lpage" query={query} />
          </Card>
        </div>
        <div className="col-12 col-lg-4 d-flex flex-column gap-4">
          {user && (
            <Card className="shadow-sm text-center" data-testid="transactions-balance">
              <Card.Body>
                <div className="text-muted small">{t('transactions.balance')}</div>
                <div className="display-6 fw-bold">{formatCount(user.credits, lang)}</div>
                <Link to={user.paid_user ? '/credits/repeat-order' : '/credits'} className="btn btn-secondary btn-sm mt-2">{t('transactions.buy_credits')}</Link>
              </Card.Body>
            </Card>
          )}
          <SpendCapCard initial={cap} />
        </div>
      </div>
    </div>
  );
}
