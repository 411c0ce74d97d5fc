/**
 * Distances between members (issue 29, item 24): shown on search cards when both members shared a location, and a
 * distance filter next to country and region. Computed by the server from the stored places; the other member's
 * coordinates never leave it, only the rounded distance does.
 */

export const DISTANCE_UNITS = ['km', 'mi'] as const;
export type DistanceUnit = (typeof DISTANCE_UNITS)[number];

export const KM_PER_MILE = 1.609344;

/**
 * Countries whose roads are signposted in miles. A member sees miles when they use the English interface and live in
 * one of them (the en-GB and en-US way of giving a distance); everyone else sees kilometres, a British member who reads
 * the site in Polish included, as the language they chose is how they read it.
 */
export const MILES_COUNTRIES: readonly string[] = ['GB', 'US'];

/** The unit a member reads distances in: miles for English in a miles country, kilometres otherwise. */
export function distanceUnit(language: string, country: string | null | undefined): DistanceUnit {
  return language === 'en' && country !== null && country !== undefined && MILES_COUNTRIES.includes(country) ? 'mi' : 'km';
}

/** The radii the search's distance filter offers, in the viewer's unit (10 km or 10 mi, and so on). */
export const DISTANCE_RADII = [10, 25, 50, 100, 250] as const;

/** The filter's values as the address carries them: a radius with its unit, `25km` or `25mi`. */
export const DISTANCE_FILTERS = DISTANCE_RADII.flatMap((r) => DISTANCE_UNITS.map((u) => `${r}${u}` as const));
export type DistanceFilter = (typeof DISTANCE_FILTERS)[number];

/** A filter value in kilometres. */
export function filterRadiusKm(filter: DistanceFilter): number {
  const value = Number.parseInt(filter, 10);
  return filter.endsWith('mi') ? value * KM_PER_MILE : value;
}

export interface RoundedDistance {
  value: number;
  unit: DistanceUnit;
  /** "< 1 km": closer than the value. */
  less_than: boolean;
}

/**
 * A distance as a card says it: under 1 → "< 1", under 10 → whole units, under 100 → to 5, beyond → to 10. The places
 * members share are towns (server/search/location.ts), so anything finer would only pretend to know more.
 */
export function roundDistance(km: number, unit: DistanceUnit): RoundedDistance {
  const d = unit === 'mi' ? km / KM_PER_MILE : km;
  if (d < 1) return { value: 1, unit, less_than: true };
  const step = d < 10 ? 1 : d < 100 ? 5 : 10;
  return { value: Math.max(1, Math.round(d / step) * step), unit, less_than: false };
}
