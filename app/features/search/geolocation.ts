/** Spec section 3: the geolocation permission is unsupported, unknown, or the browser's own state. */
export type GeoPermission = 'unsupported' | 'unknown' | PermissionState;

export interface Geocode {
  city: string;
  region: string | null;
  country: string;
  countryregion: string | null;
  latitude: number;
  longitude: number;
}

/** Spec section 9: a position up to an hour old is good enough. */
export const GEOLOCATION_MAX_AGE_MS = 60 * 60 * 1000;
export const GEOCODE_STORAGE_KEY = 'geocode';

export async function readGeoPermission(): Promise<{ state: GeoPermission; status?: PermissionStatus }> {
  if (typeof navigator === 'undefined' || !('geolocation' in navigator)) return { state: 'unsupported' };
  if (!navigator.permissions?.query) return { state: 'unknown' };
  try {
    const status = await navigator.permissions.query({ name: 'geolocation' });
    return { state: status.state, status };
  } catch {
    return { state: 'unknown' };
  }
}

export function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) =>
    navigator.geolocation.getCurrentPosition(resolve, reject, { maximumAge: GEOLOCATION_MAX_AGE_MS, timeout: 15_000 }));
}

/** The stored geocode result: the place, false after a failure, null when never tried. */
export function storedGeocode(): Geocode | false | null {
  try {
    const raw = localStorage.getItem(GEOCODE_STORAGE_KEY);
    return raw === null ? null : (JSON.parse(raw) as Geocode | false);
  } catch {
    return null;
  }
}

export function storeGeocode(value: Geocode | false) {
  try {
    localStorage.setItem(GEOCODE_STORAGE_KEY, JSON.stringify(value));
  } catch {
    // Private browsing may refuse storage; the search still works.
  }
}
