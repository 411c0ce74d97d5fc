import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { GENDERS } from '#common/constants.ts';
import { LOOKING_FOR } from '#common/fictional-profiles.ts';
import { BODY_TYPES, EYE_COLORS, HAIR_COLORS, RELATIONSHIP_STATUSES, SIGNUP_REASONS, TATTOOS } from '#common/profile.ts';
import { fictionalProfileAction, fictionalProfilePage } from '#server/http/console-fictional-profiles.server.ts';
import type { Route } from './+types/console-fictional-profile';
import { requestContext } from '../context.ts';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.fictional.profile', noindex: true });
}

/** A new fictional profile of ?site=, or the one the address names. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  return fictionalProfilePage(context.get(requestContext), request, params);
}

/** `save` creates or changes the profile; `photo` adds a photo. */
export async function action({ context, request, params }: Route.ActionArgs) {
  return fictionalProfileAction(context.get(requestContext), request, params);
}

const ATTRIBUTES = { hair_color: HAIR_COLORS, eye_color: EYE_COLORS, body_type: BODY_TYPES, relationship_status: RELATIONSHIP_STATUSES, tattoos: TATTOOS, signup_reason: SIGNUP_REASONS } as const;

export default function ConsoleFictionalProfile() {
  const { t } = useTranslation();
  const { siteId, profile: p, saved } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const error = (field: string) => reply?.fields?.[field];
  return (
    <>
      <p className="mb-1"><Link to={`/console/fictional/profiles?site=${siteId}`}>{t('console.fictional.profiles')}</Link></p>
      <h1 className="h3">{p ? p.name : t('console.fictional.new_profile')}</h1>
      <p className="text-body-secondary">{t('console.fictional.profile_intro')}</p>
      {saved && !reply && <div className="alert alert-success" role="status" data-testid="fictional-saved">{t('console.fictional.saved')}</div>}
      {reply?.error && <div className="alert alert-danger" role="alert" data-testid="fictional-error">{reply.error}</div>}
      <Form method="post" className="row g-3 mb-4" data-testid="fictional-form">
        <input type="hidden" name="intent" value="save" />
        <FormField id="fp-name" name="name" label={t('profile_fields.name')} className="col-12 col-md-4" defaultValue={p?.name} required error={error('name')} />
        <FormField id="fp-birth" name="birth_date" type="date" label={t('console.fictional.birth_date')} className="col-6 col-md-4" defaultValue={p?.birth_date} required error={error('birth_date')} />
        <FormField as="select" id="fp-gender" name="gender" label={t('profile_fields.gender')} className="col-6 col-md-2" defaultValue={p?.gender} error={error('gender')}>
          {GENDERS.map((g) => <option key={g} value={g}>{t(`gender.${g}`)}</option>)}
        </FormField>
        <FormField as="select" id="fp-looking" name="looking_for" label={t('console.fictional.looking_for')} className="col-6 col-md-2" defaultValue={p?.looking_for ?? 'both'} error={error('looking_for')}>
          {LOOKING_FOR.map((g) => <option key={g} value={g}>{t(`console.fictional.looking_${g}`)}</option>)}
        </FormField>
        <FormField id="fp-country" name="country" label={t('profile_fields.country')} className="col-6 col-md-2" defaultValue={p?.country ?? 'NL'} maxLength={2} required error={error('country')} />
        <FormField id="fp-region" name="region" label={t('console.fictional.region')} className="col-6 col-md-4" defaultValue={p?.region ?? ''} error={error('region')} />
        {Object.entries(ATTRIBUTES).map(([key, values]) => (
          <FormField key={key} as="select" id={`fp-${key}`} name={key} label={t(`profile_fields.${key}`)} className="col-6 col-md-2" defaultValue={(p as Record<string, unknown> | null)?.[key] as string ?? ''} error={error(key)}>
            <option value="">–</option>
            {values.map((v) => <option key={v} value={v}>{t(`profile_values.${key}.${v}`)}</option>)}
          </FormField>
        ))}
        <FormField as="textarea" id="fp-about" name="about" label={t('profile_fields.about')} className="col-12 col-md-6" rows={4} defaultValue={p?.about ?? ''} error={error('about')} />
        <FormField as="textarea" id="fp-notes" name="notes" label={t('console.fictional.notes')} description={t('console.fictional.notes_help')} className="col-12 col-md-6" rows={4} defaultValue={p?.notes ?? ''} error={error('notes')} />
        <div className="col-12"><button type="submit" className="btn btn-primary" disabled={busy} data-testid="fictional-save">{t('console.fictional.save')}</button></div>
      </Form>
      {p && (
        <section aria-labelledby="fp-photos">
          <h2 className="h5" id="fp-photos">{t('console.fictional.photos')}</h2>
          <div className="d-flex flex-wrap gap-2 mb-2" data-testid="fictional-photos">
            {p.photos.map((ph) => <img key={ph.id} src={`/photos/${ph.thumb_filename}`} alt={ph.main ? t('console.fictional.main_photo') : ''} width={96} height={96} className={`rounded object-fit-cover${ph.main ? ' border border-3 border-primary' : ''}`} />)}
          </div>
          <Form method="post" encType="multipart/form-data" className="d-flex gap-2 align-items-end">
            <input type="hidden" name="intent" value="photo" />
            <FormField id="fp-photo" name="photo" type="file" accept="image/jpeg,image/png,image/webp" label={t('console.fictional.add_photo')} required />
            <button type="submit" className="btn btn-outline-primary" disabled={busy} data-testid="fictional-photo-upload">{t('console.fictional.upload')}</button>
          </Form>
        </section>
      )}
    </>
  );
}
