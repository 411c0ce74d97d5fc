import { describe, expect, it } from 'vitest';
import { knownTimeZone, memberTimeZone, timeZoneCookie, timeZoneFromCookie } from './time-zone.ts';

describe('the member\'s time zone', () => {
  it('is the device\'s zone from the cookie', () => {
    expect(timeZoneFromCookie('lang=fi; tz=Europe%2FHelsinki; other=1')).toBe('Europe/Helsinki');
    expect(memberTimeZone(timeZoneFromCookie(timeZoneCookie('Pacific/Auckland')), 'NL')).toBe('Pacific/Auckland');
  });

  it('is the country\'s zone before the device has told it, else UTC', () => {
    expect(memberTimeZone(timeZoneFromCookie('lang=fi'), 'NL')).toBe('Europe/Amsterdam');
    expect(memberTimeZone(null, 'XX')).toBe('UTC');
    expect(memberTimeZone(null, null)).toBe('UTC');
  });

  it('ignores a cookie naming no real zone', () => {
    expect(timeZoneFromCookie('tz=Mars%2FOlympus')).toBeNull();
    expect(timeZoneFromCookie('tz=%E0%A4%A')).toBeNull();
    expect(timeZoneFromCookie(`tz=${'A'.repeat(100)}`)).toBeNull();
    expect(knownTimeZone('')).toBeNull();
  });
});
