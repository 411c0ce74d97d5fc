import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { selectedCountry } from '#common/site-settings.ts';
import { auditLog, sites } from '../db/schema.ts';
import { createStaff, refusal, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';

describe('the country a visitor\'s choices start from', () => {
  const site = { countries: ['NL', 'BE'], geoipPreselect: true, geoipDefaultCountry: null };
  it('is a chosen country of the site, else the GeoIP country of the site, else the assumed one', () => {
    expect(selectedCountry(site, 'DE', 'BE')).toBe('BE');
    expect(selectedCountry(site, 'BE', 'FR')).toBe('BE');
    expect(selectedCountry(site, 'BE')).toBe('BE');
    expect(selectedCountry(site, 'DE')).toBe('NL');
    expect(selectedCountry(site, null)).toBe('NL');
    expect(selectedCountry({ ...site, geoipDefaultCountry: 'BE' }, 'US')).toBe('BE');
    expect(selectedCountry({ ...site, geoipPreselect: false, geoipDefaultCountry: 'BE' }, 'NL')).toBe('BE');
    expect(selectedCountry({ ...site, geoipPreselect: false }, 'BE')).toBe('NL');
    // An assumed country the site no longer has falls back to its first.
    expect(selectedCountry({ ...site, geoipDefaultCountry: 'DE' }, null)).toBe('NL');
  });
});

describe.each(DATABASE_KINDS)('the site\'s GeoIP choices on %s', (kind) => {
  let t: TestApp;
  let admin: TestStaff;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    admin = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId] });
  });
  afterAll(() => t.close());

  const form = async () => (await t.services.console.siteSettings(admin.actor, t.siteId)).values;
  const selected = async (country: string) =>
    (await t.client({ headers: { 'cf-ipcountry': country } }).get('/api/settings.php')).body.settings as { geoip_country: string; geoip_selected_country: string };

  it('are on by default with the first country assumed, and apply at once when an admin changes them, audited', async () => {
    const good = { ...await form(), countries: ['NL', 'BE', 'DE'] };
    expect(good).toMatchObject({ geoipPreselect: true, geoipDefaultCountry: '' });
    await t.services.console.updateSite(admin.actor, t.siteId, good);
    expect(await selected('BE')).toMatchObject({ geoip_country: 'BE', geoip_selected_country: 'BE' });
    expect(await selected('US')).toMatchObject({ geoip_country: 'US', geoip_selected_country: 'NL' });

    expect(await t.services.console.updateSite(admin.actor, t.siteId, { ...good, geoipPreselect: '', geoipDefaultCountry: 'de' }, { ip: '192.0.2.9' }))
      .toEqual({ changed: ['geoipPreselect', 'geoipDefaultCountry'] });
    const [row] = await t.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(row).toMatchObject({ action: 'site.update', before: { geoipPreselect: true, geoipDefaultCountry: null }, after: { geoipPreselect: false, geoipDefaultCountry: 'DE' } });
    // GeoIP no longer preselects: every visitor starts from the assumed country; the warning still knows where they are.
    expect(await selected('BE')).toMatchObject({ geoip_country: 'BE', geoip_selected_country: 'DE' });
    // A country the visitor chooses still wins.
    expect((await t.client({ headers: { 'cf-ipcountry': 'BE' } }).get('/api/settings.php?country=NL')).body.settings.geoip_selected_country).toBe('NL');
  });

  it('refuses an assumed country that is not one of the site\'s, changing nothing', async () => {
    const good = await form();
    const [before] = await t.database.db.select().from(sites).where(eq(sites.id, t.siteId));
    expect(await refusal(t.services.console.updateSite(admin.actor, t.siteId, { ...good, countries: ['NL'], geoipDefaultCountry: 'BE' })))
      .toEqual({ status: 400, code: 'invalid_input', fields: { geoipDefaultCountry: 'errors.geoip_country_not_on_site' } });
    expect(await refusal(t.services.console.updateSite(admin.actor, t.siteId, { ...good, geoipDefaultCountry: 'XX' })))
      .toEqual({ status: 400, code: 'invalid_input', fields: { geoipDefaultCountry: 'errors.invalid_choice' } });
    const [after] = await t.database.db.select().from(sites).where(eq(sites.id, t.siteId));
    expect(after).toEqual(before);
  });
});
