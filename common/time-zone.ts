import { COUNTRY_TIME_ZONE } from './constants.ts';

/** The cookie in which the browser tells the server the device's time zone (an IANA name such as Europe/Helsinki). */
export const TIME_ZONE_COOKIE = 'tz';

/** A time zone the runtime knows, else null (a cookie is the client's word: anything may be in it). */
export function knownTimeZone(zone: string | null | undefined): string | null {
  if (!zone || zone.length > 64) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The time zone the device reported in the cookie header, if any and valid. */
export function timeZoneFromCookie(cookieHeader: string | null | undefined): string | null {
  const match = (cookieHeader ?? '').split(/;\s*/).find((part) => part.startsWith(`${TIME_ZONE_COOKIE}=`));
  if (!match) return null;
  try {
    return knownTimeZone(decodeURIComponent(match.slice(TIME_ZONE_COOKIE.length + 1)));
  } catch {
    return null;
  }
}

/**
 * The one rule for times shown to a member (docs/decisions/079): their device's time zone. The server knows it from
 * the cookie the browser set; before it has one (a first visit), it uses the member's country's zone, else UTC, and
 * the browser shows the device's after hydration.
 */
export function memberTimeZone(deviceZone: string | null, country: string | null | undefined): string {
  return deviceZone ?? (country && COUNTRY_TIME_ZONE[country]) ?? 'UTC';
}

/** The cookie that remembers the device's time zone for the server's next render. */
export function timeZoneCookie(zone: string): string {
  return `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=31536000; SameSite=Lax`;
}
