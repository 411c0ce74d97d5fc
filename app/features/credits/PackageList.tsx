import { Badge, Card, Col, Row } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import type { CreditPackage } from '#common/api-types.ts';
import type { Language } from '#common/languages.ts';
import { formatMoney } from '../../lib/format.ts';

/** The credit bundles; `action` renders the buy button of each (absent on the public price list). */
export function PackageList({ packages, messageCredits, action }: {
  packages: CreditPackage[]; messageCredits: number; action?: (p: CreditPackage) => React.ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  return (
    <Row className="g-3" data-testid="packages">
      {packages.map((p) => (
        <Col key={p.id} xs={12} sm={6} lg={3}>
          <Card className={`h-100 text-center shadow-sm ${p.popular ? 'border-secondary border-2' : ''}`} data-testid="package">
            <Card.Body className="d-flex flex-column">
              {p.popular && <Badge bg="secondary" className="align-self-center mb-2">{t('credits.popular')}</Badge>}
              <div className="display-6 fw-bold">{p.credits}</div>
              <div className="text-muted mb-2">{t('credits.credits', { count: p.credits })}</div>
              <div className="h4">{formatMoney(p.amount, p.currency, lang)}</div>
              <div className="small text-muted mb-3">{t('credits.messages', { count: Math.floor(p.credits / messageCredits) })}</div>
              {action && <div className="mt-auto">{action(p)}</div>}
            </Card.Body>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
