import { useState } from 'react';
import { data, Form, Link, redirect, useLoaderData } from 'react-router';
import { aboutMessages, CURRENCIES, moneyText, packageMoneyFormSchema } from '#common/catalogue.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { formIntent, submitForm } from '#server/http/forms.server.ts';
import type { Route } from './+types/console-package';
import { requestContext } from '../context.ts';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.package.title', noindex: true });
}

/** `/console/packages/new` or a package's id; anything else is the page's 404. */
function packageParam(id: string): number | null {
  if (id === 'new') return null;
  if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw data(null, { status: 404 });
  return Number(id);
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = packageParam(params.id);
  const editor = await orForbidden(ctx.services.console.packageEditor(staff, ctx.site.id, id)).catch((error) => {
    if ((error as { status?: number }).status === 404) throw data(null, { status: 404 });
    throw error;
  });
  const stored = editor.values;
  // Prices as money in the console's language ("29,99"); check boxes as the form sends them.
  const values = stored
    ? {
      credits: String(stored.credits), sort: String(stored.sort), popular: stored.popular ? 'on' : '', active: stored.active ? 'on' : '',
      prices: Object.fromEntries(Object.entries(stored.prices).map(([currency, cents]) => [currency, moneyText(cents, ctx.lang)])),
    }
    : { credits: '', sort: '0', popular: '', active: 'on', prices: {} };
  return { id, values, messageCredits: editor.messageCredits, saved: new URL(request.url).searchParams.get('saved') === '1' };
}

/** The package's form (create or change), or its removal after the confirmation. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = packageParam(params.id);
  // Who may not change packages learns nothing about them: refused (or not found) before the form is read.
  await loader({ context, params, request } as Route.LoaderArgs);
  const formData = await request.formData();
  const from = { ip: ctx.clientAddress };
  if (formIntent(formData) === 'remove' && id !== null) {
    const { outcome } = await orForbidden(ctx.services.console.removePackage(staff, id, from));
    return redirect(`/console/packages?removed=${outcome}`);
  }
  return submitForm(ctx, formData, packageMoneyFormSchema, async (values) => {
    if (id === null) return redirect(`/console/packages/${(await orForbidden(ctx.services.console.createPackage(staff, values, from))).id}?saved=1`);
    return orForbidden(ctx.services.console.updatePackage(staff, id, values, from));
  }, { intent: 'package' });
}

/**
 * A credit package: its credits (with about how many messages they buy on this site), the premium and offered flags,
 * its order on the credits page and its price in each currency, typed as money. The browser checks the form with the
 * schema the use case checks; each bad field shows its message beside it and nothing is stored. Removing asks first.
 */
export default function ConsolePackage() {
  const loaded = useLoaderData<typeof loader>();
  // A new one saved goes to its own address: the form starts again from what was stored.
  return <ConsolePackageForm key={loaded.id ?? 'new'} loaded={loaded} />;
}

function ConsolePackageForm({ loaded }: { loaded: Awaited<ReturnType<typeof loader>> }) {
  const { t } = useTranslation();
  const { form, fields, busy, done } = useAppForm(packageMoneyFormSchema, { intent: 'package', defaultValue: loaded.values });
  const [credits, setCredits] = useState(loaded.values.credits);
  const messages = /^\d{1,6}$/.test(credits.trim()) ? aboutMessages(Number(credits), loaded.messageCredits) : null;
  const changed = (done as { changed?: string[] } | undefined)?.changed;
  const prices = loaded.values.prices as Record<string, string>;
  return (
    <>
      <p className="mb-1"><Link to="/console/packages">{t('console.packages.title')}</Link></p>
      <h1 className="h3">{loaded.id === null ? t('console.package.new') : t('console.package.heading', { id: loaded.id })}</h1>
      {loaded.saved && !changed && <Alert variant="success" data-testid="package-saved">{t('console.package.created')}</Alert>}
      {changed && <Alert variant="success" data-testid="package-saved">{changed.length ? t('console.package.saved') : t('console.site.unchanged')}</Alert>}
      <div className="col-lg-8 px-0">
      <AppForm form={form} intent="package" data-testid="package-form" className="mb-4">
        <FormError form={form} />
        <div className="row g-3">
          <FormField
            id="package-credits" className="col-12 col-sm-6" type="number" inputMode="numeric" min={1} label={t('console.packages.credits')}
            field={fields.credits} onInput={(e: React.FormEvent<HTMLInputElement>) => setCredits(e.currentTarget.value)}
            description={<span data-testid="package-messages">{messages === null ? t('console.package.messages_free') : t('console.package.messages', { count: messages })}</span>}
          />
          <FormField id="package-sort" className="col-12 col-sm-6" type="number" inputMode="numeric" label={t('console.package.sort')} field={fields.sort} description={t('console.package.sort_help')} />
          <div className="col-12">
            <FormField id="package-popular" as="checkbox" className="mb-2" label={t('console.package.popular')} field={fields.popular} />
            <FormField id="package-active" as="checkbox" label={t('console.package.active')} field={fields.active} />
          </div>
          <FormField id="package-prices" as="group" className="col-12" label={t('console.packages.prices')} field={fields.prices} description={t('console.package.prices_help')}>
            <div className="row g-2">
              {CURRENCIES.map((currency) => (
                <div key={currency} className="col-6 col-md-3">
                  <div className="input-group">
                    <label className="input-group-text" htmlFor={`package-price-${currency}`}>{currency}</label>
                    <input
                      id={`package-price-${currency}`} name={`prices.${currency}`} className="form-control" inputMode="decimal" autoComplete="off"
                      defaultValue={prices[currency] ?? ''} data-testid={`package-price-${currency}`}
                    />
                  </div>
                </div>
              ))}
            </div>
          </FormField>
        </div>
        <button type="submit" className="btn btn-primary mt-3" disabled={busy} data-testid="package-save">
          {loaded.id === null ? t('console.package.create') : t('console.site.save')}
        </button>
      </AppForm>
      </div>
      {loaded.id !== null && (
        <details className="card col-lg-8" data-testid="package-remove">
          <summary className="card-header">{t('console.package.remove')}</summary>
          <Form method="post" className="card-body">
            <input type="hidden" name="intent" value="remove" />
            <p>{t('console.package.remove_confirm')}</p>
            <button type="submit" className="btn btn-danger" data-testid="package-remove-confirm">{t('console.package.remove_yes')}</button>
          </Form>
        </details>
      )}
    </>
  );
}
