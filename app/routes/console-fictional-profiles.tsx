import { Form, Link, useLoaderData } from 'react-router';
import { fictionalProfilesPage } from '#server/http/console-fictional-profiles.server.ts';
import type { Route } from './+types/console-fictional-profiles';
import { requestContext } from '../context.ts';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.fictional.profiles', noindex: true });
}

/** A site's fictional profiles, with the way to a new one. */
export async function loader({ context, request }: Route.LoaderArgs) {
  return fictionalProfilesPage(context.get(requestContext), request);
}

export default function ConsoleFictionalProfiles() {
  const { t } = useTranslation();
  const { sites, site, profiles } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="mb-1"><Link to="/console/fictional">{t('console.fictional.title')}</Link></p>
      <h1 className="h3">{t('console.fictional.profiles')}</h1>
      <Form method="get" className="row g-2 align-items-end mb-3">
        <FormField as="select" id="fictional-site" name="site" className="col-12 col-md-4" controlClassName="form-select-sm" label={t('console.transparency.site')} defaultValue={site.id}>
          {sites.map((s) => <option key={s.id} value={s.id}>{s.name} ({s.domain})</option>)}
        </FormField>
        <div className="col-auto"><button type="submit" className="btn btn-outline-primary btn-sm">{t('console.transparency.apply')}</button></div>
        <div className="col-auto ms-auto"><Link to={`/console/fictional/profiles/new?site=${site.id}`} className="btn btn-primary btn-sm" data-testid="fictional-new">{t('console.fictional.new_profile')}</Link></div>
      </Form>
      {!profiles.length ? <p data-testid="fictional-none">{t('console.fictional.no_profiles')}</p> : (
        <ul className="list-group" data-testid="fictional-profiles">
          {profiles.map((p) => (
            <li key={p.id} className="list-group-item d-flex gap-3">
              <Link to={`/console/fictional/profiles/${p.id}`}>{p.name}</Link>
              <span className="text-body-secondary small">{t(`gender.${p.gender}`)} · {p.birth_date} · {p.region ?? p.country}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
