import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { createGeoIp, isPublicIp } from './geoip.ts';
import { createReverseGeocoder } from './reverse-geocoder.ts';
import { createLogger } from '../infra/logger.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';

describe('offline GeoIP', () => {
  const country = createGeoIp();

  it('finds the country of public IPv4 and IPv6 addresses', () => {
    expect(country('8.8.8.8')).toBe('US');
    expect(country('194.109.6.66')).toBe('NL');
    expect(country('::ffff:194.109.6.66')).toBe('NL');
    expect(country('2001:4860:4860::8888')).toBe('US');
    expect(country('2a02:2e0:3fe:1001:302::')).toBe('DE');
  });

  it('answers null for loopback, private, link-local and malformed addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.5.4', '192.168.1.1', '169.254.1.1', '100.64.0.1', '::1', 'fd00::1', 'fe80::1', 'local', '', '999.1.1.1']) {
      expect(country(ip), ip).toBeNull();
    }
    expect(isPublicIp('192.168.1.1')).toBe(false);
    expect(isPublicIp('1.1.1.1')).toBe(true);
  });
});

describe('offline reverse geocoding', () => {
  const nearest = createReverseGeocoder();
  it('finds the nearest town with its region and country', () => {
    expect(nearest(52.37, 4.9)).toMatchObject({ city: 'Amsterdam', region: 'North Holland', region_code: 'NH', country: 'NL' });
    expect(nearest(48.137, 11.575)).toMatchObject({ city: 'Munich', region: 'Bavaria', country: 'DE' });
    expect(nearest(40.7128, -74.006)).toMatchObject({ country: 'US', region_code: 'NY' });
  });
  it('finds nothing in the middle of the ocean', () => {
    expect(nearest(0, -30)).toBeNull();
  });
});

describe.each(DATABASE_KINDS)('GET /api/geocode.php on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  it('answers the nearest place with the site region name for the search', async () => {
    const res = await t.client().get('/api/geocode.php?lat=52.37&lon=4.90');
    expect(res.status).toBe(200);
    expect(res.body.geocode).toMatchObject({ city: 'Amsterdam', region: 'North Holland', country: 'NL', countryregion: 'Noord-Holland' });
    const munich = await t.client().get('/api/geocode.php?lat=48.137&lon=11.575');
    expect(munich.body.geocode).toMatchObject({ country: 'DE', countryregion: 'Bayern' });
  });

  it('answers null far from any town', async () => {
    const res = await t.client().get('/api/geocode.php?lat=0&lon=-30');
    expect(res.status).toBe(200);
    expect(res.body.geocode).toBeNull();
  });

  it('refuses positions that are missing, malformed or out of range, in the member language', async () => {
    for (const q of ['', 'lat=52.37', 'lon=4.9', 'lat=abc&lon=4.9', 'lat=91&lon=0', 'lat=-90.5&lon=0', 'lat=0&lon=180.01', 'lat=1e3&lon=0', 'lat=0x10&lon=1']) {
      const res = await t.client().get(`/api/geocode.php?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe('geocode_invalid_position');
    }
    const nl = await t.client().get('/api/geocode.php?lat=100&lon=0', { cookie: 'locale=nl' });
    const en = await t.client().get('/api/geocode.php?lat=100&lon=0');
    expect(nl.body.error.message).not.toBe(en.body.error.message);
    expect(en.body.error.message).toMatch(/location/i);
    expect((await t.client().get('/api/geocode.php?lat=90&lon=-180')).status).toBe(200);
  });

  it('takes the visitor country from the CDN header, else from the address, else null', async () => {
    const cdn = await t.client({ headers: { 'cf-ipcountry': 'de' } }).get('/api/settings.php');
    expect(cdn.body.settings.geoip_country).toBe('DE');
    // The test clients come from loopback addresses: no country.
    expect((await t.client().get('/api/settings.php')).body.settings.geoip_country).toBeNull();
    // Behind a trusted proxy the forwarded public address is looked up offline.
    const app = createApp({
      services: t.services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'test', TRUST_PROXY: '1' }),
      logger: createLogger('silent'),
    });
    const viaProxy = async (ip: string) => (await (await app.request('http://localhost/api/settings.php', { headers: { host: 'localhost', 'x-forwarded-for': ip } })).json()).settings.geoip_country;
    expect(await viaProxy('194.109.6.66')).toBe('NL');
    expect(await viaProxy('2a02:2e0:3fe:1001:302::')).toBe('DE');
    expect(await viaProxy('192.168.0.10')).toBeNull();
  });
});
