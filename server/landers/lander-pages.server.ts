import { data, redirect } from 'react-router';
import { toId } from '#common/input.ts';
import { URL_WORD } from '#common/landers.ts';
import type { RequestContext } from '../http/context.ts';
import { orNotFound } from '../http/page-guards.server.ts';
import { parseLanderSlug, type LanderAudience } from './landers.service.ts';
import { hasMap, landerMap } from './map.ts';
import { pageTokenTarget } from './page-tokens.ts';
import { trackingFrom } from '#common/tracking.ts';
import { nicheSearchDefaults } from '#common/site-theme.ts';

/** Landers are for visitors from campaigns: a signed-in member goes where a member belongs. */
function visitorsOnly(ctx: RequestContext, memberPage: string) {
  if (ctx.userId) throw redirect(memberPage);
}

/** The visitor's country, when the site serves it: a campaign shows members from there first. */
function visitorCountry(ctx: RequestContext): string | undefined {
  const country = ctx.geoipCountry;
  return country && ctx.site.countries.includes(country) ? country : undefined;
}

/** The campaign's audience from the slug; without a gender in it, the site's niche names one (a gay site shows men). */
function audienceOf(ctx: RequestContext, slug: string | undefined): LanderAudience {
  const audience = parseLanderSlug(slug);
  if (!audience) throw data(null, { status: 404 });
  return { ...audience, gender: audience.gender ?? nicheSearchDefaults(ctx.site.niche).gender };
}

/**
 * What every lander needs: the members to show (visible ones with a photo, the visitor's country first)
 * and the query string its links to sign-up keep, so the campaign's tracking parameters come along.
 */
export async function landerPage(ctx: RequestContext, options: { slug?: string; search: string; count: number }) {
  visitorsOnly(ctx, '/members');
  const audience = audienceOf(ctx, options.slug);
  const country = audience.country ?? visitorCountry(ctx);
  const showcase = await ctx.services.landers.showcase({ ...audience, country }, options.count);
  return { ...showcase, gender: audience.gender ?? null, country: country ?? null, search: options.search };
}

/** The map lander: a country's dot map with its members pinned by region. */
export async function mapLanderPage(ctx: RequestContext, options: { slug?: string; search: string }) {
  visitorsOnly(ctx, '/members');
  const audience = audienceOf(ctx, options.slug);
  const wanted = audience.country ?? visitorCountry(ctx);
  // The campaign's or visitor's country when it has a map, else the site's first one that has.
  const country = hasMap(wanted) ? wanted : (ctx.site.countries.find(hasMap) ?? 'NL');
  const showcase = await ctx.services.landers.showcase({ ...audience, country }, 24);
  const map = landerMap(country, showcase.profiles)!;
  return { ...showcase, map, country, search: options.search };
}

/** /members/{id}/landing2|landing3/{slug?}: one member, as a visitor may see them. The slug is a campaign label. */
export async function memberLanderPage(ctx: RequestContext, options: { id: string | undefined; slug?: string; search: string }) {
  const id = toId(options.id);
  if (id === null || (options.slug !== undefined && !URL_WORD.test(options.slug))) throw data(null, { status: 404 });
  visitorsOnly(ctx, `/members/${id}`);
  const profile = await orNotFound(ctx.services.profiles.detail(ctx.actor, id, { visibleFields: ctx.site.visibleProfileFields }));
  return { profile, search: options.search };
}

/**
 * `/{token}`: a site's short path opens its lander or page with the token's tracking parameters, by a
 * redirect, so that the parameters travel the way a campaign URL's do (into the first-touch cookie, the
 * sign-up links and the sign-up gating). Unknown tokens are a plain 404.
 */
export function pageTokenRedirect(ctx: RequestContext, token: string | undefined, url: URL): never {
  const entry = token ? ctx.services.pageTokens.resolve(ctx.site.domain, token) : null;
  if (!entry) throw data(null, { status: 404 });
  const target = pageTokenTarget(entry, url.searchParams);
  // This response already sets the first-touch cookie: it must hold the token's parameters, not only the URL's.
  if (ctx.trackingFirstTouch) ctx.tracking = trackingFrom(Object.fromEntries(new URL(target, url).searchParams));
  throw redirect(target);
}
