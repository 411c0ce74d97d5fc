import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from '../../lib/i18n.ts';
import type { CreditPackage, PackagePrice } from '#common/api-types.ts';
import { messagesForCredits } from '#common/chat-prices.ts';
import type { Language } from '#common/languages.ts';
import { formatCount, formatMoney } from '../../lib/format.ts';
import { discountLabel } from './discount-label.ts';
import './credits.scss';

/**
 * The credit bundles; `action` renders the buy button of each (absent on the public price list). With
 * `prices`, a discounted bundle shows its price before the discount struck through and which discount it is.
 * `highlight` marks one bundle (the one that covers what the member wants to do, or the one they chose).
 */
export function PackageList({ packages, messageCredits, action, prices, note, highlight }: {
  packages: CreditPackage[]; messageCredits: number; action?: (p: CreditPackage) => React.ReactNode;
  prices?: Record<number, PackagePrice>; note?: (p: CreditPackage) => React.ReactNode;
  highlight?: { id: number; label: string } | null;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  return (
    <Row className="g-3" data-testid="packages">
      {packages.map((p) => {
        const price = prices?.[p.id];
        const highlighted = highlight?.id === p.id;
        const border = highlighted ? 'border-primary border-3 package-highlighted' : p.popular ? 'border-secondary border-2' : '';
        return (
          <Col key={p.id} xs={12} sm={6} lg={3}>
            <Card className={`h-100 text-center shadow-sm ${border}`} data-testid="package" data-highlighted={highlighted || undefined}>
              <Card.Body className="d-flex flex-column">
                {highlighted
                  ? <Badge bg="primary" className="align-self-center mb-2 text-wrap" data-testid="package-highlight">{highlight.label}</Badge>
                  : p.popular && <Badge bg="secondary" className="align-self-center mb-2">{t('credits.popular')}</Badge>}
                <div className="display-6 fw-bold" data-testid="package-credits">{formatCount(p.credits, lang)}</div>
                <div className="text-muted mb-2">{t('credits.credits', { count: p.credits })}</div>
                {price?.original_amount ? (
                  <>
                    <div className="h4 mb-1">
                      <del className="price-original me-2" data-testid="price-original">{formatMoney(price.original_amount, p.currency, lang)}</del>
                      <span className="text-secondary fw-bold" data-testid="price">{formatMoney(price.amount, p.currency, lang)}</span>
                    </div>
                    <div className="mb-2">
                      <Badge bg="warning" text="dark" className="text-wrap" data-testid="discount-label">{discountLabel(t, price.discount!)}</Badge>
                    </div>
                  </>
                ) : (
                  <div className="h4" data-testid="price">{formatMoney(p.amount, p.currency, lang)}</div>
                )}
                <div className="small text-muted mb-3">{t('credits.messages', { count: messagesForCredits(p.credits, messageCredits) })}</div>
                {note?.(p)}
                {action && <div className="mt-auto">{action(p)}</div>}
              </Card.Body>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
