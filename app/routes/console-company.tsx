import { data, Link, useLoaderData } from 'react-router';
import { companySchema, PAYMENT_PROVIDERS, paymentAccountSchema } from '#common/site-settings.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { formIntent, submitForm } from '#server/http/forms.server.ts';
import type { Route } from './+types/console-company';
import { requestContext } from '../context.ts';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { CompanyFields } from '../features/console/CompanyFields.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.company.title', noindex: true });
}

function companyParam(id: string): number {
  if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw data(null, { status: 404 });
  return Number(id);
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  return orForbidden(ctx.services.console.company(staff, companyParam(params.id))).catch((error) => {
    if ((error as { status?: number }).status === 404) throw data(null, { status: 404 });
    throw error;
  });
}

/** The company's details, or its payment account: two forms, each its own use case. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = companyParam(params.id);
  // Who may not change the company learns nothing about its fields: refused (or not found) before the form is read.
  await loader({ context, params, request } as Route.LoaderArgs);
  const formData = await request.formData();
  const from = { ip: ctx.clientAddress };
  if (formIntent(formData) === 'account') {
    return submitForm(ctx, formData, paymentAccountSchema, (values) => orForbidden(ctx.services.console.setPaymentAccount(staff, id, values, from)), {
      intent: 'account', resetForm: true,
    });
  }
  return submitForm(ctx, formData, companySchema, (values) => orForbidden(ctx.services.console.updateCompany(staff, id, values, from)), { intent: 'company' });
}

/**
 * A company's details, and the payment account every site of theirs takes payments through (a site's own account, set
 * with `payments:account --site`, wins). A stored API key is never shown again: the page names its last four characters.
 */
export default function ConsoleCompany() {
  const { t } = useTranslation();
  const company = useLoaderData<typeof loader>();
  const details = useAppForm(companySchema, { intent: 'company', defaultValue: company.values });
  const saved = details.done as { changed: string[] } | undefined;
  return (
    <>
      <p className="mb-1"><Link to="/console/companies">{t('console.companies.title')}</Link></p>
      <h1 className="h3">{company.values.name}</h1>
      {saved && <Alert variant="success" data-testid="company-saved">{saved.changed.length ? t('console.company.saved') : t('console.site.unchanged')}</Alert>}
      <section className="card mb-3" aria-labelledby="company-details">
        <div className="card-body">
          <h2 id="company-details" className="h5 card-title">{t('console.company.details')}</h2>
          <AppForm form={details.form} intent="company" data-testid="company-form">
            <FormError form={details.form} />
            <CompanyFields fields={details.fields} prefix="company" />
            <button type="submit" className="btn btn-primary" disabled={details.busy} data-testid="company-save">{t('console.site.save')}</button>
          </AppForm>
        </div>
      </section>
      {/* Made anew when the stored account changes, so that the form starts from it again. */}
      <PaymentAccountForm key={`${company.account?.provider}:${company.account?.keyEnd}`} account={company.account} />
    </>
  );
}

/** The payment account of the company's sites: what is stored (the key by its last four characters), and a change. */
function PaymentAccountForm({ account: stored }: { account: { provider: string; keyEnd: string | null } | null }) {
  const { t } = useTranslation();
  const account = useAppForm(paymentAccountSchema, { intent: 'account', defaultValue: { provider: stored?.provider ?? 'test' } });
  return (
    <section className="card" aria-labelledby="company-account">
      <div className="card-body">
        <h2 id="company-account" className="h5 card-title">{t('console.company.account')}</h2>
        <p data-testid="company-account-now">
          {stored
            ? t('console.company.account_now', { provider: t(`console.company.providers.${stored.provider}`), end: stored.keyEnd ?? '—' })
            : t('console.company.account_none')}
        </p>
        {account.done !== undefined && <Alert variant="success" data-testid="company-account-saved">{t('console.company.account_saved')}</Alert>}
        <AppForm form={account.form} intent="account" data-testid="company-account-form">
          <FormError form={account.form} />
          <div className="row">
            <FormField id="account-provider" as="select" className="col-12 col-md-4 mb-3" label={t('console.company.provider')} field={account.fields.provider}>
              {PAYMENT_PROVIDERS.map((p) => <option key={p} value={p}>{t(`console.company.providers.${p}`)}</option>)}
            </FormField>
            <FormField
              id="account-key" type="password" autoComplete="off" className="col-12 col-md-8 mb-3" label={t('console.company.fields.apiKey')}
              description={t('console.company.key_help')} field={account.fields.apiKey}
            />
          </div>
          <button type="submit" className="btn btn-primary" disabled={account.busy} data-testid="company-account-save">{t('console.company.account_save')}</button>
        </AppForm>
      </div>
    </section>
  );
}
