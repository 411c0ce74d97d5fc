import { useState } from 'react';
import { data, Link, redirect, useLoaderData } from 'react-router';
import { COUNTRIES, INTERESTS, NICHES } from '#common/constants.ts';
import {
  LOGGED_OUT_SEARCH_MODES, PHOTO_MODERATION_MODES, PROFILE_FIELDS, SEARCH_FIELDS, SIGNUP_MODES, SITE_SECTIONS, siteSettingsSchema,
} from '#common/site-settings.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { submitForm } from '#server/http/forms.server.ts';
import type { Route } from './+types/console-site';
import { requestContext } from '../context.ts';
import { FormField } from '../components/FormField.tsx';
import { Alert } from '../components/Alert.tsx';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { previewColour, SitePreview, type PreviewLook } from '../features/console/SitePreview.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.site.title', noindex: true });
}

/** `/console/sites/new` or a site's id; anything else is the page's 404. */
function siteParam(id: string): number | 'new' {
  if (id === 'new') return 'new';
  const n = Number(id);
  if (!/^\d{1,9}$/.test(id) || n < 1) throw data(null, { status: 404 });
  return n;
}

/** Booleans as the check boxes' form value ('on' ticked). */
const formValues = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? 'on' : '') : v]));

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = siteParam(params.id);
  const saved = new URL(request.url).searchParams.get('saved') === '1';
  if (id === 'new') {
    const form = await orForbidden(ctx.services.console.newSiteForm(staff));
    return { id: null, domain: null, values: form.values ? formValues(form.values) : {}, companies: form.companies, saved };
  }
  const site = await orForbidden(ctx.services.console.siteSettings(staff, id)).catch((error) => {
    if ((error as { status?: number }).status === 404) throw data(null, { status: 404 });
    throw error;
  });
  return { id: site.id, domain: site.domain, values: formValues(site.values), companies: site.companies, saved };
}

/** One form, one use case: a new site goes to its own page; a change stays here and says what changed. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = siteParam(params.id);
  const from = { ip: ctx.clientAddress };
  // Who may not change the site learns nothing about its fields: refused before the form is read.
  await loader({ context, params, request } as Route.LoaderArgs);
  return submitForm(ctx, await request.formData(), siteSettingsSchema, async (values) => {
    if (id === 'new') return redirect(`/console/sites/${(await orForbidden(ctx.services.console.createSite(staff, values, from))).id}?saved=1`);
    return orForbidden(ctx.services.console.updateSite(staff, id, values, from));
  });
}

type Field = (typeof SITE_SECTIONS)[keyof typeof SITE_SECTIONS][number];

const SELECTS: Partial<Record<Field, readonly (string | number)[]>> = {
  signups: SIGNUP_MODES, loggedOutSearch: LOGGED_OUT_SEARCH_MODES, loggedOutSearchTrafficsource: LOGGED_OUT_SEARCH_MODES,
  photoModeration: PHOTO_MODERATION_MODES, niche: NICHES.map((_, i) => i + 1), geoipDefaultCountry: ['', ...COUNTRIES],
};
const CHECKS: Partial<Record<Field, readonly string[]>> = {
  countries: COUNTRIES, visibleProfileFields: PROFILE_FIELDS, searchFields: SEARCH_FIELDS, interests: INTERESTS,
};
const FLAGS: readonly Field[] = ['enableSiteEntryPopup', 'memberResell', 'visibleProfileNotes', 'geoipPreselect'];
const TEXTAREAS: readonly Field[] = ['description', 'fictionalWarning', 'minimumMessageCosts'];
const NUMBERS: readonly Field[] = ['messageCredits', 'signupCredits', 'freeMessages', 'photoCredits', 'giftCredits', 'messageLength', 'refundDays', 'visitorNewMemberDays'];

/**
 * Every setting of a site (spec section 3) in sections, with a preview of a member page in the unsaved colours. The
 * browser checks the form with the schema the use case checks; each bad field shows its message beside it and
 * nothing is stored. A saved change reaches every instance within a second.
 */
export default function ConsoleSite() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const { form, fields, busy, done } = useAppForm(siteSettingsSchema, { defaultValue: loaded.values });
  const initial = loaded.values as Record<string, string>;
  const [look, setLook] = useState<PreviewLook>({
    name: initial.name ?? '', primary: initial.themePrimary ?? '#0f8b8d', secondary: initial.themeSecondary ?? '#c2187a', dark: initial.themeDark ?? '#2b1740',
  });
  const changed = (done as { changed?: string[] } | undefined)?.changed;

  /** The preview follows the colours and the name as they are typed; a colour that is no colour keeps the last good one. */
  const follow = (event: React.FormEvent<HTMLFormElement>) => {
    // Read now: the event's form is gone by the time React runs the update.
    const { elements } = event.currentTarget;
    const read = (name: string) => (elements.namedItem(name) as HTMLInputElement | null)?.value ?? '';
    const typed = { name: read('name'), primary: previewColour(read('themePrimary')), secondary: previewColour(read('themeSecondary')), dark: previewColour(read('themeDark')) };
    setLook((old) => ({
      name: typed.name, primary: typed.primary ?? old.primary, secondary: typed.secondary ?? old.secondary, dark: typed.dark ?? old.dark,
    }));
  };

  const optionLabel = (name: Field, value: string | number) => {
    if (name === 'countries') return t(`countries.${value}`);
    if (name === 'geoipDefaultCountry') return value ? t(`countries.${value}`) : t('console.site.options.geoipDefaultCountry.first');
    if (name === 'interests') return t(`interests.${value}`);
    if (name === 'visibleProfileFields') return t(`profile_fields.${value}`);
    return t(`console.site.options.${name}.${value}`);
  };

  const control = (name: Field) => {
    const field = fields[name];
    const id = `site-${name}`;
    const label = t(`console.site.fields.${name}`);
    const description = t(`console.site.help.${name}`, { defaultValue: '' }) || undefined;
    if (name === 'companyId') {
      return (
        <FormField key={name} id={id} as="select" className="mb-3" label={label} field={field} description={description}>
          {loaded.companies.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        </FormField>
      );
    }
    const options = SELECTS[name];
    if (options) {
      return (
        <FormField key={name} id={id} as="select" className="mb-3" label={label} field={field} description={description}>
          {options.map((v) => <option key={v} value={v}>{optionLabel(name, v)}</option>)}
        </FormField>
      );
    }
    const checks = CHECKS[name];
    if (checks) {
      const chosen = new Set((field.initialValue as string[] | undefined) ?? []);
      return (
        <FormField key={name} id={id} as="group" className="mb-3" label={label} field={field} description={description}>
          <div className="d-flex flex-wrap gap-3">
            {checks.map((v) => (
              <div key={v} className="form-check">
                <input type="checkbox" className="form-check-input" id={`${id}-${v}`} name={field.name} value={v} defaultChecked={chosen.has(v)} />
                <label className="form-check-label" htmlFor={`${id}-${v}`}>{optionLabel(name, v)}</label>
              </div>
            ))}
          </div>
        </FormField>
      );
    }
    if (FLAGS.includes(name)) return <FormField key={name} id={id} as="checkbox" className="mb-3" label={label} field={field} description={description} />;
    if (TEXTAREAS.includes(name)) return <FormField key={name} id={id} as="textarea" rows={3} className="mb-3" label={label} field={field} description={description} />;
    const type = NUMBERS.includes(name) ? 'number' : name === 'supportEmail' ? 'email' : 'text';
    return <FormField key={name} id={id} type={type} className="mb-3" label={label} field={field} description={description} />;
  };

  return (
    <>
      <p className="mb-1"><Link to="/console/sites">{t('console.sites.title')}</Link></p>
      <h1 className="h3">{loaded.id === null ? t('console.sites.new') : t('console.site.heading', { domain: loaded.domain })}</h1>
      {loaded.saved && !changed && <Alert variant="success" data-testid="site-saved">{t('console.site.created')}</Alert>}
      {changed && (
        <Alert variant="success" data-testid="site-saved">
          {changed.length ? t('console.site.saved', { fields: changed.map((f) => t(`console.site.fields.${f}`)).join(', ') }) : t('console.site.unchanged')}
        </Alert>
      )}
      <AppForm form={form} data-testid="site-form" onInput={follow}>
        <FormError form={form} />
        <div className="row g-4">
          <div className="col-12 col-lg-8">
            {(Object.keys(SITE_SECTIONS) as (keyof typeof SITE_SECTIONS)[]).map((section) => (
              <section key={section} className="card mb-3" aria-labelledby={`site-section-${section}`} data-testid={`site-section-${section}`}>
                <div className="card-body">
                  <h2 id={`site-section-${section}`} className="h5 card-title">{t(`console.site.sections.${section}`)}</h2>
                  {SITE_SECTIONS[section].map((name) => control(name))}
                  {section === 'credits' && loaded.id !== null && <p className="small mb-0">{t('console.site.retention_hint')} <Link to="/console/companies">{t('console.companies.title')}</Link></p>}
                </div>
              </section>
            ))}
          </div>
          <div className="col-12 col-lg-4">
            <div className="sticky-lg-top pt-lg-2">
              <h2 className="h5">{t('console.site.preview.title')}</h2>
              <SitePreview look={look} />
              <button type="submit" className="btn btn-primary w-100 mt-3" disabled={busy} data-testid="site-save">
                {loaded.id === null ? t('console.site.create') : t('console.site.save')}
              </button>
            </div>
          </div>
        </div>
      </AppForm>
    </>
  );
}
