import { createGeoIp, type CountryLookup } from './geoip.ts';
import { createReverseGeocoder, type ReverseGeocoder } from './reverse-geocoder.ts';

export interface Geo {
  /** Country of a client address (null for loopback, private and unknown addresses). */
  countryForIp: CountryLookup;
  /** Nearest known place to a position. */
  nearestPlace: ReverseGeocoder;
}

let shared: Geo | undefined;

/** The datasets are read-only and large: one lazily loaded copy per process serves every request. */
export function sharedGeo(): Geo {
  return (shared ??= { countryForIp: createGeoIp(), nearestPlace: createReverseGeocoder() });
}
