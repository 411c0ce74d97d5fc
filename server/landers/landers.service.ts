import type { ProfileSummary } from '#common/api-types.ts';
import { COUNTRIES, MAX_AGE, MIN_AGE } from '#common/constants.ts';
import { URL_WORD } from '#common/landers.ts';
import type { SearchResult } from '../search/search.service.ts';

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

type Search = (viewerId: number | null, input: { gender?: 'male' | 'female'; country?: string; min_age: number; max_age: number; cursor?: string }) => Promise<SearchResult>;

/**
 * Which members a lander shows. Landers go through the member search as a visitor, so they show exactly
 * whom the search shows a visitor: active, not invisible, not deleted accounts; no SQL of their own.
 */
/** New members without a photo come first in the search: this many pages are looked through for faces. */
const PAGES_AT_MOST = 6;

export function createLandersService(deps: { search: Search }) {
  const withPhoto = (p: ProfileSummary) => p.main_image !== null;
  /** Pages through the search (newest first) until `count` members with a photo are found, a few pages at most. */
  async function withPhotos(input: Parameters<Search>[1], count: number, skip: Set<number>) {
    const found: ProfileSummary[] = [];
    let page = await deps.search(null, input);
    const first = page;
    for (let n = 1; ; n++) {
      found.push(...page.profiles.filter((p) => withPhoto(p) && !skip.has(p.id)).slice(0, count - found.length));
      if (found.length >= count || !page.next_cursor || n >= PAGES_AT_MOST) break;
      page = await deps.search(null, { ...input, cursor: page.next_cursor });
    }
    return { found, first };
  }

  return {
    /**
     * Up to `count` members with a photo. A campaign for one country shows that country's members first;
     * when it has too few, members of other countries fill the page, so that a lander never looks empty.
     */
    async showcase(audience: LanderAudience, count: number): Promise<Showcase> {
      const base = { gender: audience.gender, min_age: MIN_AGE, max_age: MAX_AGE };
      const { found: profiles, first } = await withPhotos({ ...base, country: audience.country }, count, new Set());
      if (profiles.length < count && audience.country) {
        const more = await withPhotos(base, count - profiles.length, new Set(profiles.map((p) => p.id)));
        profiles.push(...more.found);
      }
      return { profiles, total: first.numResults ?? profiles.length, capped: first.numResults_capped };
    },
  };
}

export type LandersService = ReturnType<typeof createLandersService>;
