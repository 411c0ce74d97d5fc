import { iso31662 } from 'iso-3166';
import { COUNTRIES } from '#common/constants.ts';

export interface Region {
  country: string;
  /** The ISO 3166-2 code without its country prefix (`BY` for Bayern). */
  code: string;
  name: string;
}

/**
 * Which subdivisions of ISO 3166-2 members pick from, where it is not simply every first-level one:
 * the level people name when they say where they live, without the parts that are countries of their own
 * (Aruba, Puerto Rico, Svalbard …), regions that only group the provinces listed next to them, and the
 * retired subdivisions the data set still carries.
 */
const PICK: Record<string, (code: string, parent: string) => boolean> = {
  // The twelve provinces: Aruba, Curaçao, Sint Maarten and the Caribbean Netherlands have country codes of their own.
  NL: firstLevelExcept('NL', ['AW', 'BQ1', 'BQ2', 'BQ3', 'CW', 'SX']),
  // The provinces and the capital region; Flanders and Wallonia only group the provinces.
  BE: firstLevelExcept('BE', ['VLG', 'WAL']),
  // Metropolitan regions, Corsica and the overseas departments; not the collectivities with codes of their own.
  FR: firstLevelExcept('FR', ['BL', 'CP', 'MF', 'NC', 'PF', 'PM', 'TF', 'WF']),
  // Åland has a country code of its own.
  FI: firstLevelExcept('FI', ['01']),
  // The 26 counties, not the four historic provinces that group them.
  IE: (_code, parent) => parent.startsWith('IE-'),
  // Council areas, unitary authorities, boroughs and districts; not the four nations that group them.
  GB: firstLevelExcept('GB', ['ENG', 'NIR', 'SCT', 'WLS']),
  // The 50 states and the District of Columbia; the outlying areas have country codes of their own.
  US: firstLevelExcept('US', ['AS', 'GU', 'MP', 'PR', 'UM', 'VI']),
  // Svalbard and Jan Mayen have a country code of their own.
  NO: firstLevelExcept('NO', ['21', '22']),
  // The five regions since 2007; the data set still lists the counties before them (three-digit codes).
  DK: (code, parent) => parent === 'DK' && code.length === 2,
};

function firstLevelExcept(country: string, codes: string[]) {
  return (code: string, parent: string) => parent === country && !codes.includes(code);
}

/** Words that end an inverted ISO name ("Madrid, Comunidad de", "Bristol, City of", "Durham, County"). */
const INVERTED_TAIL = /^(?:.* (?:de|of)|Comunidad|County|The)$/;

/**
 * A subdivision's name as people write it: ISO lists some names inverted ("Asturias, Principado de") or
 * with a second official name ("Valle d'Aosta, Vallée d'Aoste"), some with a qualifier in brackets, and
 * Denmark's with the word "Region" before each.
 */
export function displayName(isoName: string): string {
  const name = isoName.replace(/\s*\([^)]*\)$/, '').replace(/^Region /, '');
  const comma = name.indexOf(', ');
  if (comma < 0) return name;
  const [head, tail] = [name.slice(0, comma), name.slice(comma + 2)];
  if (INVERTED_TAIL.test(tail)) return `${tail} ${head}`;
  // "Armagh City, Banbridge and Craigavon" is one name of three places.
  if (/ and /.test(tail)) return name;
  return head;
}

/** Where the data set's name is wrong or not the one people use. */
const NAMES: Record<string, string> = {
  'DK-82': 'Midtjylland',
  'BE-BRU': 'Brussel',
};

function buildRegions(countries: readonly string[]): Region[] {
  const wanted = new Set(countries);
  const list: Region[] = [];
  for (const { code: full, name, parent } of iso31662) {
    const country = full.slice(0, 2);
    if (!wanted.has(country)) continue;
    const code = full.slice(3);
    if (!(PICK[country] ?? firstLevelExcept(country, []))(code, parent)) continue;
    list.push({ country, code, name: NAMES[full] ?? displayName(name) });
  }
  return list.sort((a, b) => a.country.localeCompare(b.country) || a.name.localeCompare(b.name, 'en'));
}

/** Every region of every country the product knows, from ISO 3166-2 (the `iso-3166` package). */
export const REGIONS: readonly Region[] = buildRegions(COUNTRIES);

/** The regions of one country, ordered by name. */
export function regionsOf(country: string): Region[] {
  return REGIONS.filter((r) => r.country === country);
}
