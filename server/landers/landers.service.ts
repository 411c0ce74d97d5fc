import type { ProfileSummary } from '#common/api-types.ts';
import { COUNTRIES, MAX_AGE, MIN_AGE } from '#common/constants.ts';
import { URL_WORD } from '#common/landers.ts';
import { nicheSearchDefaults } from '#common/site-theme.ts';
import type { SearchResult } from '../search/search.service.ts';
import type { Actor } from '../actor.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { ProfilesService } from '../profiles/profiles.service.ts';
import type { Site } from '../settings/settings.service.ts';
import { siteOf } from '../accounts/contact-rules.ts';
import { hasMap, landerMap } from './map.ts';

/** Whom a lander shows: a gender and a country, both optional. */
export interface LanderAudience {
  gender?: 'male' | 'female';
  country?: string;
}

const GENDER_WORDS: Record<string, 'male' | 'female'> = { women: 'female', woman: 'female', female: 'female', men: 'male', man: 'male', male: 'male' };

/**
 * A lander's slug is the campaign's own word for the page ("women-nl", "summer-sale"). The words of it
 * the site knows choose the audience: women/men pick a gender, a site country's code ("nl") the country.
 * Any other well-formed word is a campaign label and changes nothing; a slug that is not a URL word
 * (capitals, dots, spaces, over 60 characters) is no page of ours: null, which the page turns into a 404.
 */
export function parseLanderSlug(slug: string | undefined): LanderAudience | null {
  if (slug === undefined || slug === '') return {};
  if (!URL_WORD.test(slug)) return null;
  const audience: LanderAudience = {};
  for (const word of slug.split('-')) {
    if (GENDER_WORDS[word] && !audience.gender) audience.gender = GENDER_WORDS[word];
    else if (word.length === 2 && COUNTRIES.includes(word.toUpperCase()) && !audience.country) audience.country = word.toUpperCase();
  }
  return audience;
}

export interface Showcase {
  /** Visible members with an approved main photo, those of the wanted country first. */
  profiles: ProfileSummary[];
  /** How many members match the audience (at most the search's cap; then `capped`). */
  total: number;
  capped: boolean;
}

type Search = (actor: Actor, input: { gender?: 'male' | 'female'; country?: string; min_age: number; max_age: number; cursor?: string }, options: { shopWindow: true }) => Promise<SearchResult>;

/**
 * Which members a lander shows. Landers go through the member search as a visitor, in the site's shop window: active,
 * not invisible, not deleted accounts of the sites it meets (decision 051), with a photo a moderator approved, not
 * newer than the site's visitorNewMemberDays (decision 076); no SQL of their own.
 */
const SHOP_WINDOW = { shopWindow: true } as const;
/** New members without a photo come first in the search: this many pages are looked through for faces. */
const PAGES_AT_MOST = 6;

export function createLandersService(deps: {
  search: Search;
  /** The visitor's site: its niche (whom a lander without a gender shows), its countries, what its profile pages show. */
  site: (siteId: number) => Promise<Pick<Site, 'niche' | 'countries'>>;
  profiles: Pick<ProfilesService, 'detail'>;
}) {
  const withPhoto = (p: ProfileSummary) => p.main_image !== null;
  /** Pages through the search (newest first) until `count` members with a photo are found, a few pages at most. */
  async function withPhotos(visitor: Actor, input: Parameters<Search>[1], count: number, skip: Set<number>) {
    const found: ProfileSummary[] = [];
    let page = await deps.search(visitor, input, SHOP_WINDOW);
    const first = page;
    for (let n = 1; ; n++) {
      found.push(...page.profiles.filter((p) => withPhoto(p) && !skip.has(p.id)).slice(0, count - found.length));
      if (found.length >= count || !page.next_cursor || n >= PAGES_AT_MOST) break;
      page = await deps.search(visitor, { ...input, cursor: page.next_cursor }, SHOP_WINDOW);
    }
    return { found, first };
  }

  /**
   * Up to `count` members with a photo. A campaign for one country shows that country's members first;
   * when it has too few, members of other countries fill the page, so that a lander never looks empty.
   */
  async function showcase(siteId: number, audience: LanderAudience, count: number): Promise<Showcase> {
    const visitor: Actor = { kind: 'visitor', siteId };
    const base = { gender: audience.gender, min_age: MIN_AGE, max_age: MAX_AGE };
    const { found: profiles, first } = await withPhotos(visitor, { ...base, country: audience.country }, count, new Set());
    if (profiles.length < count && audience.country) {
      const more = await withPhotos(visitor, base, count - profiles.length, new Set(profiles.map((p) => p.id)));
      profiles.push(...more.found);
    }
    return { profiles, total: first.numResults ?? profiles.length, capped: first.numResults_capped };
  }

  /**
   * The visitor's site and the campaign's audience from the slug (a malformed one is no page: 404). Without a gender
   * in the slug the site's niche names one (a gay site shows men); without a country, the visitor's own when the
   * site serves it.
   */
  async function audienceFor(actor: Actor, slug: string | undefined, visitorCountry: string | null) {
    const siteId = siteOf(actor);
    if (siteId === null) throw new AppError(403, 'forbidden');
    const audience = parseLanderSlug(slug);
    if (!audience) throw notFound();
    const site = await deps.site(siteId);
    const served = visitorCountry && site.countries.includes(visitorCountry) ? visitorCountry : undefined;
    return { siteId, site, gender: audience.gender ?? nicheSearchDefaults(site.niche).gender, campaignCountry: audience.country, served };
  }

  /** Where a lander's input comes from: the campaign's slug, and where the request says the visitor is (GeoIP). */
  interface LanderInput { slug?: string; visitorCountry: string | null }

  return {
    /** A lander's members (`count` with a photo, the campaign's or the visitor's country first) and whom it shows. */
    async page(actor: Actor, input: LanderInput & { count: number }) {
      const { siteId, gender, campaignCountry, served } = await audienceFor(actor, input.slug, input.visitorCountry);
      const country = campaignCountry ?? served;
      const shown = await showcase(siteId, { gender, country }, input.count);
      return { ...shown, gender: gender ?? null, country: country ?? null };
    },

    /** The map lander: a country's dot map with its members pinned by region. */
    async mapPage(actor: Actor, input: LanderInput) {
      const { siteId, site, gender, campaignCountry, served } = await audienceFor(actor, input.slug, input.visitorCountry);
      const wanted = campaignCountry ?? served;
      // The campaign's or visitor's country when it has a map, else the site's first one that has.
      const country = hasMap(wanted) ? wanted : (site.countries.find(hasMap) ?? 'NL');
      const shown = await showcase(siteId, { gender, country }, 24);
      return { ...shown, map: landerMap(country, shown.profiles)!, country };
    },

    /** A member on the member landers (/members/{id}/landing2|landing3), as a visitor of the site may see them. */
    async memberPage(actor: Actor, input: { profileId: number }) {
      return { profile: await deps.profiles.detail(actor, input.profileId, { attributes: true }) };
    },
  };
}
