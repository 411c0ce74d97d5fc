import { data, redirect } from 'react-router';
import { isAppError } from '../infra/errors.ts';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from './console-pages.server.ts';
import { idOf } from './console-queues.server.ts';
import type { RequestContext } from './context.ts';

const FIELDS = [
  'name', 'birth_date', 'gender', 'looking_for', 'country', 'region', 'hair_color', 'eye_color', 'body_type', 'relationship_status', 'tattoos', 'signup_reason', 'about', 'notes',
] as const;

/** A site's fictional profiles (?site=, by default the first site the staff member reaches) and the sites to choose from. */
export async function fictionalProfilesPage(ctx: RequestContext, request: Request) {
  const staff = await requireConsoleStaff(ctx);
  const sites = await ctx.services.console.sites(staff);
  const asked = idOf(new URL(request.url).searchParams.get('site'));
  const site = sites.find((s) => s.id === asked) ?? sites[0];
  if (!site) throw data(null, { status: 403 });
  return { sites, site, profiles: await orForbidden(ctx.services.fictionalProfiles.list(staff, site.id)) };
}

/** The form's page: a new profile of ?site=, or the profile the address names. */
export async function fictionalProfilePage(ctx: RequestContext, request: Request, params: { id?: string }) {
  const staff = await requireConsoleStaff(ctx);
  if (params.id === 'new') {
    const siteId = idOf(new URL(request.url).searchParams.get('site'));
    if (siteId === null) throw data(null, { status: 404 });
    await orForbidden(ctx.services.fictionalProfiles.list(staff, siteId));
    return { siteId, profile: null, saved: false };
  }
  const id = idOf(params.id);
  if (id === null) throw data(null, { status: 404 });
  const profile = await orForbidden(ctx.services.fictionalProfiles.profile(staff, id)).catch((e: unknown) => {
    if (isAppError(e) && e.status === 404) throw data(null, { status: 404 });
    throw e;
  });
  return { siteId: profile.site_id, profile, saved: new URL(request.url).searchParams.get('saved') === '1' };
}

/**
 * The form's posts: `save` creates or changes the profile, `photo` adds an uploaded photo. A refusal answers 400 (415
 * for a file that is no photo) with the translated message and the field errors, and changes nothing.
 */
export async function fictionalProfileAction(ctx: RequestContext, request: Request, params: { id?: string }) {
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const form = await request.formData();
  const from = { ip: ctx.clientAddress };
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === 'string' ? v : '';
  };
  const fields = Object.fromEntries(FIELDS.map((f) => [f, text(f)])) as Record<(typeof FIELDS)[number], string>;
  try {
    if (text('intent') === 'photo') {
      const id = idOf(params.id);
      const file = form.get('photo');
      if (id === null || !(file instanceof File) || file.size === 0) return data({ error: ctx.translator.t(lang, 'errors.invalid_input'), fields: {} as Record<string, string> }, 400);
      await ctx.services.fictionalProfiles.addPhoto(staff, id, Buffer.from(await file.arrayBuffer()), from);
      throw redirect(`/console/fictional/profiles/${id}?saved=1`);
    }
    if (params.id === 'new') {
      const siteId = idOf(new URL(request.url).searchParams.get('site'));
      if (siteId === null) return data({ error: ctx.translator.t(lang, 'errors.invalid_input'), fields: {} as Record<string, string> }, 400);
      const { id } = await ctx.services.fictionalProfiles.create(staff, siteId, fields, from);
      throw redirect(`/console/fictional/profiles/${id}?saved=1`);
    }
    const id = idOf(params.id);
    if (id === null) throw data(null, { status: 404 });
    await ctx.services.fictionalProfiles.update(staff, id, fields, from);
    throw redirect(`/console/fictional/profiles/${id}?saved=1`);
  } catch (error) {
    if (error instanceof Response || (error as { type?: string })?.type === 'DataWithResponseInit') throw error;
    const refusal = consoleErrorText(ctx, lang, error, []);
    const details = isAppError(error) ? (error.details ?? {}) : {};
    const fieldErrors = Object.fromEntries(Object.entries(details).map(([k, v]) => [k, ctx.translator.t(lang, String(v))]));
    return data({ error: refusal.message, fields: fieldErrors }, isAppError(error) ? error.status : 400);
  }
}
