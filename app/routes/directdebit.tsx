import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { Link, redirect } from 'react-router';
import { DIRECT_DEBIT_MAX_CENTS_PER_30_DAYS, SMS_CODE_TTL_MINUTES } from '#common/constants.ts';
import { directDebitConfirmSchema, directDebitStartSchema } from '#common/direct-debit.ts';
import { isReference } from '#common/ids.ts';
import { safeReturnPath } from '#common/schemas.ts';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/directdebit';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { formIntent, submitForm } from '#server/http/forms.server.ts';
import { linkedCode } from '#server/payments/purchase-form.server.ts';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { formatMoney } from '../lib/format.ts';
import { withReturn } from '../lib/return-path.ts';
import { pageMeta } from '../lib/seo.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const member = requireMemberActor(ctx, url.pathname + url.search);
  // The bundles in the member's currency with their prices now (the credits page's rule, discount included).
  const { currency, packages, prices } = await ctx.services.payments.purchase(member, { code: linkedCode(url) });
  const chosen = packages.find((p) => String(p.id) === url.searchParams.get('package')) ?? null;
  const requestId = url.searchParams.get('request');
  const pending = isReference(requestId) ? await ctx.services.directDebit.pending(member, requestId) : null;
  // A purchase begun in a conversation (`?return=`, kept through both steps) continues there after paying.
  const returnTo = safeReturnPath(url.searchParams.get('return'));
  // Confirmed already (the back button): the payment's status page.
  if (pending?.status === 'confirmed' && pending.orderId) throw redirect(withReturn(`/credits/${pending.orderId}`, returnTo));
  return {
    currency, packages, prices, chosen, maxCents: DIRECT_DEBIT_MAX_CENTS_PER_30_DAYS, returnTo,
    pending: pending && pending.packageId === chosen?.id ? pending : null,
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'direct_debit.title', noindex: true });
}

/**
 * Step 1 (`intent=start`): the mandate's details are checked (IBAN, blocked IBAN or number, the limits) and
 * a code goes to the mobile number; the page then asks for it. Step 2 (`intent=confirm`): the code places
 * the order and its direct debit, and the member goes to the payment's status page.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const url = new URL(request.url);
  const member = requireMemberActor(ctx, url.pathname + url.search);
  const formData = await request.formData();
  if (formIntent(formData) === 'confirm') {
    const returnTo = safeReturnPath(url.searchParams.get('return')) ?? undefined;
    return submitForm(ctx, formData, directDebitConfirmSchema, async (input) => {
      const placed = await ctx.services.directDebit.confirm(member, { requestId: input.request, code: input.code, returnTo });
      return redirect(withReturn(`/credits/${placed.order.id}`, returnTo));
    }, { intent: 'confirm' });
  }
  return submitForm(ctx, formData, directDebitStartSchema, async (form) => {
    // A code in the page's link prices the bundle as on the credits page.
    const started = await ctx.services.directDebit.start(member, { form, discountCode: linkedCode(url), language: ctx.lang });
    const next = new URLSearchParams(url.searchParams);
    next.set('package', String(form.package_id));
    next.set('request', started.id);
    return redirect(`/directdebit?${next}`);
  }, { intent: 'start', limits: ctx.services.rateLimits.smsCodes });
}

/** The direct-debit form: the mandate's details and consent, then the code from the SMS. */
export default function DirectDebit({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Language;
  const { chosen, pending, currency, returnTo } = loaderData;
  const money = (cents: number) => formatMoney(cents, currency, lang);
  return (
    <div className="container py-4 max-w-640">
      <h1 className="h3">{t('direct_debit.title')}</h1>
      {currency !== 'EUR' ? (
        <Alert variant="warning" data-testid="dd-unavailable">{t('errors.direct_debit_unavailable')}</Alert>
      ) : !chosen ? (
        <Card className="shadow-sm" data-testid="dd-choose">
          <Card.Body>
            <p>{t('direct_debit.choose')}</p>
            <div className="d-grid gap-2">
              {loaderData.packages.map((p) => (
                <Link key={p.id} to={withReturn(`/directdebit?package=${p.id}`, returnTo)} className="btn btn-outline-primary" data-testid="dd-package">
                  {t('direct_debit.bundle', { count: p.credits, price: money(loaderData.prices[p.id]?.amount ?? p.amount) })}
                </Link>
              ))}
            </div>
          </Card.Body>
        </Card>
      ) : (
        <>
          <p className="lead mb-1" data-testid="dd-bundle">
            {t('direct_debit.bundle', { count: chosen.credits, price: money(loaderData.prices[chosen.id]?.amount ?? chosen.amount) })}
          </p>
          {loaderData.prices[chosen.id]?.original_amount && (
            <p className="text-muted small mb-1" data-testid="dd-original">
              {t('direct_debit.instead_of', { price: money(loaderData.prices[chosen.id].original_amount!) })}
            </p>
          )}
          <p className="text-muted small">{t('direct_debit.lead', { max: money(loaderData.maxCents) })}</p>
          {pending ? <CodeStep requestId={pending.id} phone={pending.phone} locked={pending.status === 'locked'} restart={withReturn(`/directdebit?package=${chosen.id}`, returnTo)} /> : <DetailsStep packageId={chosen.id} amount={loaderData.prices[chosen.id]?.amount ?? chosen.amount} />}
          <p className="mt-3 small"><Link to={withReturn(`/credits?package=${chosen.id}`, returnTo)} data-testid="dd-other-method">{t('direct_debit.other_method')}</Link></p>
        </>
      )}
    </div>
  );
}

function DetailsStep({ packageId, amount }: { packageId: number; amount: number }) {
  const { t } = useTranslation();
  const { form, fields, busy } = useAppForm(directDebitStartSchema, { intent: 'start' });
  const text = (name: 'account_holder' | 'iban' | 'street' | 'house_number' | 'zip' | 'city' | 'mobile', extra: Record<string, unknown> = {}, col = 'col-12') => (
    <FormField
      id={`dd-${name}`} className={col} label={t(`direct_debit.${name}`)} field={fields[name]} errorTestId={`dd-${name}-error`}
      required data-testid={`dd-${name}`} {...extra}
    />
  );
  const check = (name: 'mandate_consent' | 'withdrawal_consent', label: string) => (
    <FormField
      id={`dd-${name}`} as="checkbox" className="mb-2" label={label} field={fields[name]} errorTestId={`dd-${name}-error`}
      required data-testid={`dd-${name}`}
    />
  );
  return (
    <Card className="shadow-sm" data-testid="dd-details">
      <Card.Body>
        <FormError form={form} testId="dd-error" />
        <AppForm form={form} intent="start">
          <input type="hidden" name="package_id" value={packageId} />
          <input type="hidden" name="amount" value={amount} />
          <div className="row g-3 mb-3">
            {text('account_holder', { autoComplete: 'name', maxLength: 70 })}
            {text('iban', { autoComplete: 'off', autoCapitalize: 'characters', spellCheck: false, maxLength: 42, placeholder: 'NL91 ABNA 0417 1643 00' })}
            {text('street', { autoComplete: 'address-line1', maxLength: 100 }, 'col-7 col-sm-8')}
            {text('house_number', { maxLength: 12 }, 'col-5 col-sm-4')}
            {text('zip', { autoComplete: 'postal-code', maxLength: 12 }, 'col-5 col-sm-4')}
            {text('city', { autoComplete: 'address-level2', maxLength: 60 }, 'col-7 col-sm-8')}
            {text('mobile', { type: 'tel', autoComplete: 'tel', maxLength: 40, placeholder: '+31 6 12345678' })}
          </div>
          <p className="small text-muted">{t('direct_debit.mobile_help')}</p>
          {check('mandate_consent', t('direct_debit.mandate_consent'))}
          {check('withdrawal_consent', t('credits.withdrawal_consent'))}
          <Button type="submit" className="w-100 mt-2" disabled={busy} data-testid="dd-send-code">{t('direct_debit.send_code')}</Button>
        </AppForm>
      </Card.Body>
    </Card>
  );
}

function CodeStep({ requestId, phone, locked, restart }: { requestId: string; phone: string; locked: boolean; restart: string }) {
  const { t } = useTranslation();
  const { form, fields, busy } = useAppForm(directDebitConfirmSchema, { intent: 'confirm' });
  return (
    <Card className="shadow-sm" data-testid="dd-code-step">
      <Card.Body>
        <p data-testid="dd-code-sent">{t('direct_debit.code_sent', { phone, minutes: SMS_CODE_TTL_MINUTES })}</p>
        <FormError form={form} testId="dd-error" />
        {locked ? (
          <Alert variant="danger" data-testid="dd-locked">{t('errors.sms_code_attempts')}</Alert>
        ) : (
          <AppForm form={form} intent="confirm">
            <input type="hidden" name="request" value={requestId} />
            <FormField
              id="dd-code" className="mb-3" label={t('direct_debit.code')} field={fields.code} errorTestId="dd-code-error" required
              inputMode="numeric" autoComplete="one-time-code" maxLength={8} pattern="[0-9 ]*"
              controlClassName="fs-4 text-center font-monospace code-spaced" data-testid="dd-code"
            />
            <Button type="submit" className="w-100" disabled={busy} data-testid="dd-confirm">{t('direct_debit.confirm')}</Button>
          </AppForm>
        )}
        <p className="mt-3 mb-0 small"><Link to={restart} data-testid="dd-restart">{t('direct_debit.new_code')}</Link></p>
      </Card.Body>
    </Card>
  );
}
