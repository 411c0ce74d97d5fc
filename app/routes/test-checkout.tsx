import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { data, redirect } from 'react-router';
import { testCheckoutBody } from '#common/contracts/payments.ts';
import { isReference } from '#common/ids.ts';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/test-checkout';
import { requestContext } from '../context.ts';
import { orNotFound, requireMemberActor } from '#server/http/page-guards.server.ts';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { formatMoney } from '../lib/format.ts';
import { pageMeta } from '../lib/seo.ts';
import { submitForm } from '#server/http/forms.server.ts';

/** Only the member who placed the order sees its checkout; nobody does where simulated payments are refused. */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  if (!isReference(params.ref)) throw data(null, { status: 404 });
  const member = requireMemberActor(ctx, url.pathname);
  const checkout = await orNotFound(ctx.services.payments.testCheckout(member, params.ref));
  return { id: checkout.id, amount: checkout.amountCents, currency: checkout.currency, description: checkout.description, method: checkout.method, status: checkout.status, keepsMandate: checkout.sequenceType === 'first' };
}

/** The same decision as POST /api/test-checkout.php; the payer then returns to the payment's status page. */
export async function action({ context, request, url }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname);
  return submitForm(ctx, await request.formData(), testCheckoutBody, async ({ id, outcome }) =>
    redirect(await ctx.services.payments.decideTestCheckout(member, id, outcome)));
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
  // A form of buttons: the chosen outcome is the button that sent it, so it works before (and without) JavaScript.
  const { form, busy } = useAppForm(testCheckoutBody);
  return (
    <div className="min-vh-100 bg-light">
      <div className="test-banner" />
      <div className="container py-5 max-w-520">
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
            <FormError form={form} testId="checkout-error" />
            <AppForm form={form} className="d-grid gap-2">
              <input type="hidden" name="id" value={loaderData.id} />
              {OUTCOMES.map(([outcome, variant]) => (
                <Button key={outcome} type="submit" name="outcome" value={outcome} variant={variant} disabled={busy} data-testid={`outcome-${outcome}`}>
                  {t(`test_checkout.outcome_${outcome}`)}
                </Button>
              ))}
            </AppForm>
          </Card.Body>
        </Card>
      </div>
    </div>
  );
}
