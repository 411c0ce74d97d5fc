import { Link, redirect, useLoaderData } from 'react-router';
import { companySchema } from '#common/site-settings.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { submitForm } from '#server/http/forms.server.ts';
import type { Route } from './+types/console-companies';
import { requestContext } from '../context.ts';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { CompanyFields } from '../features/console/CompanyFields.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.companies.title', noindex: true });
}

/** The companies behind the sites (admins of every site): each with its sites and payment provider, and a new one. */
export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  return { companies: await orForbidden(ctx.services.console.companyList(staff)) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  await orForbidden(ctx.services.console.companyList(staff));
  return submitForm(ctx, await request.formData(), companySchema, async (values) => {
    const { id } = await orForbidden(ctx.services.console.createCompany(staff, values, { ip: ctx.clientAddress }));
    return redirect(`/console/companies/${id}`);
  });
}

export default function ConsoleCompanies() {
  const { t } = useTranslation();
  const { companies } = useLoaderData<typeof loader>();
  const { form, fields, busy } = useAppForm(companySchema, { defaultValue: { country: 'NL', deleteDiscount: '0' } });
  return (
    <>
      <p className="mb-1"><Link to="/console/sites">{t('console.sites.title')}</Link></p>
      <h1 className="h3">{t('console.companies.title')}</h1>
      <table className="table table-sm align-middle" data-testid="console-companies">
        <thead>
          <tr>
            <th scope="col">{t('console.company.fields.name')}</th>
            <th scope="col">{t('console.company.fields.city')}</th>
            <th scope="col" className="text-end">{t('console.companies.sites')}</th>
            <th scope="col">{t('console.company.provider')}</th>
          </tr>
        </thead>
        <tbody>
          {companies.map((c) => (
            <tr key={c.id} data-company={c.name}>
              <th scope="row" className="fw-normal"><Link to={`/console/companies/${c.id}`}>{c.name}</Link></th>
              <td>{c.city}, {t(`countries.${c.country}`)}</td>
              <td className="text-end">{c.sites}</td>
              <td>{t(`console.company.providers.${c.provider ?? 'none'}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <section className="card" aria-labelledby="company-new">
        <div className="card-body">
          <h2 id="company-new" className="h5 card-title">{t('console.companies.new')}</h2>
          <AppForm form={form} data-testid="company-new-form">
            <FormError form={form} />
            <CompanyFields fields={fields} prefix="company-new" />
            <button type="submit" className="btn btn-primary" disabled={busy} data-testid="company-create">{t('console.companies.create')}</button>
          </AppForm>
        </div>
      </section>
    </>
  );
}
