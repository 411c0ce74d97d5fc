import { data, redirect } from 'react-router';
import { toId } from '#common/input.ts';
import { URL_WORD, type LanderName, type SignupLander } from '#common/landers.ts';
import { trackingFrom } from '#common/tracking.ts';
import { visitorCountry, type RequestContext } from '../http/context.ts';
import { orNotFound } from '../http/page-guards.server.ts';
import { pageTokenTarget } from './page-tokens.ts';

/** Landers are for visitors from campaigns: a signed-in member goes where a member belongs. */
function visitorsOnly(ctx: RequestContext, memberPage: string) {
  if (ctx.userId) throw redirect(memberPage);
}

/** A lander served to a visitor: their first lander if they have none yet (booked on their sign-up, decision 083). */
function openedLander(ctx: RequestContext, lander: SignupLander) {
  ctx.landerOpened = lander;
}

/**
 * A lander or a member's landing page served to a visitor is a visit of the day (not a bot's, not the same visitor's
 * again on that lander within the window), and the visitor's first lander if they have none yet.
 */
export async function countVisit(ctx: RequestContext, lander: SignupLander) {
  openedLander(ctx, lander);
  const visit = ctx.landerVisit;
  if (visit && await ctx.services.landerVisits.count(ctx.actor, { lander, userAgent: visit.userAgent, seen: visit.seen })) visit.counted = lander;
}

/**
 * The landers' loaders. Every lander shows the members of landers.page (visible ones with a photo, the visitor's
 * country first) and keeps the query string its links to sign-up carry, so the campaign's tracking parameters come along.
 */
export async function landerPage(ctx: RequestContext, options: { lander: LanderName; slug?: string; search: string; count: number }) {
  visitorsOnly(ctx, '/members');
  const page = await orNotFound(ctx.services.landers.page(ctx.actor, { slug: options.slug, count: options.count, visitorCountry: visitorCountry(ctx) }));
  await countVisit(ctx, options.lander);
  return { ...page, search: options.search };
}

/** The map lander: a country's dot map with its members pinned by region. */
export async function mapLanderPage(ctx: RequestContext, options: { slug?: string; search: string }) {
  visitorsOnly(ctx, '/members');
  const page = await orNotFound(ctx.services.landers.mapPage(ctx.actor, { slug: options.slug, visitorCountry: visitorCountry(ctx) }));
  await countVisit(ctx, 'maplanding');
  return { ...page, search: options.search };
}

/** /members/{id}/landing2|landing3/{slug?}: one member, as a visitor may see them. The slug is a campaign label. */
export async function memberLanderPage(ctx: RequestContext, options: { lander: 'member-landing2' | 'member-landing3'; id: string | undefined; slug?: string; search: string }) {
  const id = toId(options.id);
  if (id === null || (options.slug !== undefined && !URL_WORD.test(options.slug))) throw data(null, { status: 404 });
  visitorsOnly(ctx, `/members/${id}`);
  const { profile } = await orNotFound(ctx.services.landers.memberPage(ctx.actor, { profileId: id }));
  await countVisit(ctx, options.lander);
  return { profile, search: options.search };
}

/**
 * `/{token}`: a site's short path opens its lander or page with the token's tracking parameters, by a
 * redirect, so that the parameters travel the way a campaign URL's do (into the first-touch cookie, the
 * sign-up links and the sign-up gating). Unknown tokens are a plain 404.
 */
export async function pageTokenRedirect(ctx: RequestContext, token: string | undefined, url: URL): Promise<never> {
  const entry = token ? await ctx.services.pageTokens.resolve(ctx.site.id, token) : null;
  if (!entry) throw data(null, { status: 404 });
  const target = pageTokenTarget(entry, url.searchParams);
  // This response already sets the first-touch cookie: it must hold the token's parameters, not only the URL's.
  if (ctx.trackingFirstTouch) ctx.tracking = trackingFrom(Object.fromEntries(new URL(target, url).searchParams));
  // And the lander it opens, should the visitor's browser not follow the redirect with the cookie it gets here.
  if (entry.lander) openedLander(ctx, entry.lander);
  throw redirect(target);
}
