import { data, Form, Link, redirect, useLoaderData } from 'react-router';
import { COUNTRIES } from '#common/constants.ts';
import { CURRENCIES, DISCOUNT_KINDS, discountFormSchema, moneyText } from '#common/catalogue.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { formIntent, submitForm } from '#server/http/forms.server.ts';
import type { Route } from './+types/console-discount';
import { requestContext } from '../context.ts';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.discount.title', noindex: true });
}

/** `/console/discounts/new` or a code's id; anything else is the page's 404. */
function codeParam(id: string): number | null {
  if (id === 'new') return null;
  if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw data(null, { status: 404 });
  return Number(id);
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = codeParam(params.id);
  // Codes of every site are for finance of every site: others do not get the choice.
  const everySiteChoice = staff.siteIds === null;
  const saved = new URL(request.url).searchParams.get('saved') === '1';
  if (id === null) {
    await orForbidden(ctx.services.console.discountList(staff, ctx.site.id));
    return { id, uses: 0, everySiteChoice, saved, values: { code: '', kind: 'code', percentBp: '', minimums: {}, country: '', oncePerMember: 'on', startsOn: '', endsOn: '', active: 'on', everySite: '' } };
  }
  const code = await orForbidden(ctx.services.console.discountEditor(staff, ctx.site.id, id)).catch((error) => {
    if ((error as { status?: number }).status === 404) throw data(null, { status: 404 });
    throw error;
  });
  return {
    id, uses: code.uses, everySiteChoice, saved,
    values: {
      code: code.code, kind: code.kind, percentBp: moneyText(code.percentBp, ctx.lang).replace(/[.,]?0+$/, ''),
      minimums: Object.fromEntries(Object.entries(code.minimums).map(([currency, cents]) => [currency, moneyText(cents, ctx.lang)])),
      country: code.country ?? '', oncePerMember: code.oncePerMember ? 'on' : '', startsOn: code.startsOn ?? '', endsOn: code.endsOn ?? '',
      active: code.active ? 'on' : '', everySite: code.everySite ? 'on' : '',
    },
  };
}

/** The code's form (create or change), or its deactivation. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = codeParam(params.id);
  // Who may not change codes learns nothing about them: refused (or not found) before the form is read.
  await loader({ context, params, request } as Route.LoaderArgs);
  const formData = await request.formData();
  const from = { ip: ctx.clientAddress };
  if (formIntent(formData) === 'deactivate' && id !== null) {
    return { deactivated: (await orForbidden(ctx.services.console.deactivateDiscount(staff, ctx.site.id, id, from))).changed };
  }
  return submitForm(ctx, formData, discountFormSchema, async (values) => {
    if (id === null) return redirect(`/console/discounts/${(await orForbidden(ctx.services.console.createDiscount(staff, ctx.site.id, values, from))).id}?saved=1`);
    return orForbidden(ctx.services.console.updateDiscount(staff, ctx.site.id, id, values, from));
  }, { intent: 'discount' });
}

/**
 * A discount code: its name, kind (a code members type, or the site's welcome code), percentage, minimum order per
 * currency, country, validity window, once per member and whether it is in use. Checked in the browser with the schema
 * the use case checks; each bad field's message beside it. Deactivating asks first; a code is never deleted.
 */
export default function ConsoleDiscount() {
  const loaded = useLoaderData<typeof loader>();
  // A new one saved goes to its own address: the form starts again from what was stored.
  return <ConsoleDiscountForm key={loaded.id ?? 'new'} loaded={loaded} />;
}

function ConsoleDiscountForm({ loaded }: { loaded: Awaited<ReturnType<typeof loader>> }) {
  const { t } = useTranslation();
  const { form, fields, busy, done } = useAppForm(discountFormSchema, { intent: 'discount', defaultValue: loaded.values });
  const changed = (done as { changed?: string[] } | undefined)?.changed;
  const minimums = loaded.values.minimums as Record<string, string>;
  return (
    <>
      <p className="mb-1"><Link to="/console/discounts">{t('console.discounts.title')}</Link></p>
      <h1 className="h3">{loaded.id === null ? t('console.discounts.new') : loaded.values.code}</h1>
      {loaded.id !== null && <p data-testid="discount-uses">{t('console.discount.uses', { count: loaded.uses })}</p>}
      {loaded.saved && !changed && <Alert variant="success" data-testid="discount-saved">{t('console.discount.created')}</Alert>}
      {changed && <Alert variant="success" data-testid="discount-saved">{changed.length ? t('console.discount.saved') : t('console.site.unchanged')}</Alert>}
      <div className="col-lg-8 px-0">
        <AppForm form={form} intent="discount" data-testid="discount-form" className="mb-4">
          <FormError form={form} />
          <div className="row g-3">
            <FormField id="discount-code" className="col-12 col-sm-6" label={t('console.discounts.code')} field={fields.code} autoComplete="off" description={t('console.discount.code_help')} />
            <FormField id="discount-kind" as="select" className="col-12 col-sm-6" label={t('console.discount.kind')} field={fields.kind}>
              {DISCOUNT_KINDS.map((k) => <option key={k} value={k}>{t(`console.discounts.kinds.${k}`)}</option>)}
            </FormField>
            <FormField id="discount-percentBp" className="col-12 col-sm-6" inputMode="decimal" label={t('console.discount.percentage')} field={fields.percentBp} description={t('console.discount.percentage_help')} />
            <FormField id="discount-country" as="select" className="col-12 col-sm-6" label={t('console.discounts.country')} field={fields.country}>
              <option value="">{t('console.discounts.any_country')}</option>
              {COUNTRIES.map((c) => <option key={c} value={c}>{t(`countries.${c}`)}</option>)}
            </FormField>
            <FormField id="discount-minimums" as="group" className="col-12" label={t('console.discounts.minimums')} field={fields.minimums} description={t('console.discount.minimums_help')}>
              <div className="row g-2">
                {CURRENCIES.map((currency) => (
                  <div key={currency} className="col-6 col-md-3">
                    <div className="input-group">
                      <label className="input-group-text" htmlFor={`discount-minimum-${currency}`}>{currency}</label>
                      <input id={`discount-minimum-${currency}`} name={`minimums.${currency}`} className="form-control" inputMode="decimal" autoComplete="off" defaultValue={minimums[currency] ?? ''} />
                    </div>
                  </div>
                ))}
              </div>
            </FormField>
            <FormField id="discount-startsOn" className="col-12 col-sm-6" type="date" label={t('console.discount.starts')} field={fields.startsOn} />
            <FormField id="discount-endsOn" className="col-12 col-sm-6" type="date" label={t('console.discount.ends')} field={fields.endsOn} description={t('console.discount.window_help')} />
            <div className="col-12">
              <FormField id="discount-oncePerMember" as="checkbox" className="mb-2" label={t('console.discount.once')} field={fields.oncePerMember} />
              <FormField id="discount-active" as="checkbox" className="mb-2" label={t('console.discount.active')} field={fields.active} />
              {loaded.everySiteChoice && <FormField id="discount-everySite" as="checkbox" label={t('console.discount.every_site')} field={fields.everySite} />}
            </div>
          </div>
          <button type="submit" className="btn btn-primary mt-3" disabled={busy} data-testid="discount-save">
            {loaded.id === null ? t('console.discount.create') : t('console.site.save')}
          </button>
        </AppForm>
      </div>
      {loaded.id !== null && loaded.values.active === 'on' && (
        <details className="card col-lg-8" data-testid="discount-deactivate">
          <summary className="card-header">{t('console.discount.deactivate')}</summary>
          <Form method="post" className="card-body">
            <input type="hidden" name="intent" value="deactivate" />
            <p>{t('console.discount.deactivate_confirm')}</p>
            <button type="submit" className="btn btn-danger" data-testid="discount-deactivate-confirm">{t('console.discount.deactivate_yes')}</button>
          </Form>
        </details>
      )}
    </>
  );
}
