import { data, Form, Link, redirect, useLoaderData } from 'react-router';
import { giftFormSchema } from '#common/catalogue.ts';
import { LANGUAGES } from '#common/languages.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { formIntent, submitForm } from '#server/http/forms.server.ts';
import type { Route } from './+types/console-gift';
import { requestContext } from '../context.ts';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { AppForm, FormError, useAppForm } from '../lib/forms.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.gift.title', noindex: true });
}

/** `/console/gifts/new` or a gift's id; anything else is the page's 404. */
function giftParam(id: string): number | null {
  if (id === 'new') return null;
  if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw data(null, { status: 404 });
  return Number(id);
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = giftParam(params.id);
  const saved = new URL(request.url).searchParams.get('saved') === '1';
  if (id === null) {
    // Only those who may add gifts see the form (finance of every site): the list's check is the weaker one.
    if (staff.siteIds !== null) throw data(null, { status: 403 });
    await orForbidden(ctx.services.console.giftList(staff));
    return { id, saved, image: null, builtIn: false, values: { names: {}, credits: '', sort: '0', active: 'on' } };
  }
  const gift = await orForbidden(ctx.services.console.giftEditor(staff, id)).catch((error) => {
    if ((error as { status?: number }).status === 404) throw data(null, { status: 404 });
    throw error;
  });
  return {
    id, saved, builtIn: gift.builtIn, image: gift.image ? `/gift-images/${gift.image}` : `/gifts/${gift.slug}.svg`,
    values: { names: gift.names, credits: gift.credits === null ? '' : String(gift.credits), sort: String(gift.sort), active: gift.active ? 'on' : '' },
  };
}

/** The gift's form with its image (create or change), or its retirement. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = giftParam(params.id);
  // Who may not change gifts learns nothing about them: refused (or not found) before the form is read.
  await loader({ context, params, request } as Route.LoaderArgs);
  const formData = await request.formData();
  const from = { ip: ctx.clientAddress };
  if (formIntent(formData) === 'retire' && id !== null) return { retired: (await orForbidden(ctx.services.console.retireGift(staff, id, from))).changed };
  const file = formData.get('image');
  const image = file instanceof File && file.size > 0 ? Buffer.from(await file.arrayBuffer()) : null;
  formData.delete('image');
  return submitForm(ctx, formData, giftFormSchema, async (values) => {
    if (id === null) return redirect(`/console/gifts/${(await orForbidden(ctx.services.console.createGift(staff, values, image, from))).id}?saved=1`);
    return orForbidden(ctx.services.console.updateGift(staff, id, values, image, from));
  }, { intent: 'gift' });
}

/**
 * A gift: its name in every language, its image (uploaded, checked by its content like a member photo), what it costs
 * (empty: the site's gift price), its place in the picker and whether it is offered. Retiring asks first.
 */
export default function ConsoleGift() {
  const loaded = useLoaderData<typeof loader>();
  // A new one saved goes to its own address: the form starts again from what was stored.
  return <ConsoleGiftForm key={loaded.id ?? 'new'} loaded={loaded} />;
}

function ConsoleGiftForm({ loaded }: { loaded: Awaited<ReturnType<typeof loader>> }) {
  const { t } = useTranslation();
  const { form, fields, busy, done } = useAppForm(giftFormSchema, { intent: 'gift', defaultValue: loaded.values });
  // Each language's name as its own field (its error beside it, or the server's for the names as a whole).
  const stored = (loaded.values.names ?? {}) as Record<string, string>;
  const nameField = (code: string) => ({ name: `names.${code}`, initialValue: stored[code], errors: form.allErrors[`names.${code}`] });
  const changed = (done as { changed?: string[] } | undefined)?.changed;
  return (
    <>
      <p className="mb-1"><Link to="/console/gifts">{t('console.gifts.title')}</Link></p>
      <h1 className="h3">{loaded.id === null ? t('console.gifts.new') : t('console.gift.heading', { id: loaded.id })}</h1>
      {loaded.saved && !changed && <Alert variant="success" data-testid="gift-saved">{t('console.gift.created')}</Alert>}
      {changed && <Alert variant="success" data-testid="gift-saved">{changed.length ? t('console.gift.saved') : t('console.site.unchanged')}</Alert>}
      <div className="col-lg-8 px-0">
        <AppForm form={form} intent="gift" encType="multipart/form-data" data-testid="gift-form" className="mb-4">
          <FormError form={form} />
          {loaded.image && <img src={loaded.image} alt={t('console.gift.current_image')} width={96} height={96} className="mb-2" data-testid="gift-image" />}
          <FormField
            id="gift-image-upload" name="image" type="file" accept="image/jpeg,image/png,image/webp,image/gif,image/avif" className="mb-3"
            label={loaded.id === null ? t('console.gift.image') : t('console.gift.replace_image')} error={form.allErrors.image?.[0]}
            description={t('console.gift.image_help')}
          />
          <FormField id="gift-names" as="group" className="mb-3" label={t('console.gift.names')} field={fields.names} description={t('console.gift.names_help')}>
            <div className="row g-2">
              {LANGUAGES.map(({ code, name }) => (
                <FormField key={code} id={`gift-name-${code}`} className="col-12 col-sm-6" label={name} field={nameField(code)} lang={code} maxLength={40} />
              ))}
            </div>
          </FormField>
          <div className="row g-3">
            <FormField id="gift-credits" className="col-12 col-sm-6" type="number" inputMode="numeric" min={0} label={t('console.gifts.credits')} field={fields.credits} description={t('console.gift.credits_help')} />
            <FormField id="gift-sort" className="col-12 col-sm-6" type="number" inputMode="numeric" label={t('console.package.sort')} field={fields.sort} description={t('console.gift.sort_help')} />
          </div>
          <FormField id="gift-active" as="checkbox" className="mt-3" label={t('console.gift.active')} field={fields.active} />
          <button type="submit" className="btn btn-primary mt-3" disabled={busy} data-testid="gift-save">
            {loaded.id === null ? t('console.gift.create') : t('console.site.save')}
          </button>
        </AppForm>
      </div>
      {loaded.id !== null && loaded.values.active === 'on' && (
        <details className="card col-lg-8" data-testid="gift-retire">
          <summary className="card-header">{t('console.gift.retire')}</summary>
          <Form method="post" className="card-body">
            <input type="hidden" name="intent" value="retire" />
            <p>{t('console.gift.retire_confirm')}</p>
            <button type="submit" className="btn btn-danger" data-testid="gift-retire-confirm">{t('console.gift.retire_yes')}</button>
          </Form>
        </details>
      )}
    </>
  );
}
