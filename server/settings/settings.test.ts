import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, sites } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('site settings on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    const [company] = await t.database.db.insert(companies).values({
      name: 'Liefde B.V.', address: 'Kerkstraat 1', kvk: '87654321', city: 'Utrecht', country: 'NL', supportPhone: '030 - 123 45 67',
    }).returning();
    await t.database.db.insert(sites).values({
      domain: 'liefde.example', companyId: company.id, name: 'Liefde', domainLanguage: 'nl_NL', niche: 4, signups: 'with_trafficsource',
      loggedOutSearch: 'none', countries: ['NL', 'BE'], messageCredits: 8,
    });
  });
  afterAll(() => t.close());

  it('answers settings for the request host with the fields of the spec', async () => {
    const res = await t.client({ host: 'www.liefde.example' }).get('/api/settings.php?network=abc&foo=bar');
    expect(res.status).toBe(200);
    expect(res.body.settings).toMatchObject({
      name: 'Liefde', domain: 'liefde.example', domain_language: 'nl_NL', niche: 4, signups: 'with_trafficsource',
      logged_out_search: 'none', message_credits: 8, countries: ['NL', 'BE'],
    });
    for (const key of ['index_title', 'description', 'cdn_prefix', 'logged_out_search_trafficsource', 'geoip_country', 'support_email', 'support_phone',
      'signup_credits', 'photo_credits', 'gift_credits', 'message_length', 'search_fields', 'refund_days', 'member_resell', 'company_id', 'mail_name',
      'interests', 'fictional_icon', 'fictional_warning', 'enable_site_entry_popup', 'visible_profile_fields', 'visible_profile_notes']) {
      expect(res.body.settings).toHaveProperty(key);
    }
  });

  it('falls back to the default site for an unknown host', async () => {
    const res = await t.client({ host: 'unknown.example:8080' }).get('/api/settings.php');
    expect(res.body.settings.domain).toBe('localhost');
  });

  it('sets the locale from domain_language when there is no locale cookie, and keeps a chosen one', async () => {
    const fresh = t.client({ host: 'liefde.example' });
    const res = await fresh.get('/api/settings.php');
    expect(res.headers.getSetCookie().find((c) => c.startsWith('locale='))).toMatch(/^locale=nl;.*Max-Age=31536000/);
    expect((await fresh.post('/api/user.php', { email: 'x@example.org', password: 'nope' })).body.error.message).not.toMatch(/incorrect/);
    const chosen = t.client({ host: 'liefde.example' });
    chosen.cookies.set('locale', 'fr');
    const again = await chosen.get('/api/settings.php');
    expect(again.headers.getSetCookie().some((c) => c.startsWith('locale='))).toBe(false);
  });

  it('takes the visitor country from a CDN header', async () => {
    const res = await t.client({ headers: { 'cf-ipcountry': 'de' } }).get('/api/settings.php');
    expect(res.body.settings.geoip_country).toBe('DE');
  });

  it('serves company info, interests in the member\'s language and regions', async () => {
    const company = (await t.client({ host: 'liefde.example' }).get('/api/companyinfo.php')).body.companyinfo;
    expect(company).toMatchObject({ name: 'Liefde B.V.', city: 'Utrecht', kvk: '87654321', support_phone: '0301234567', delete_discount: 0 });
    const de = t.client();
    de.cookies.set('locale', 'de');
    const interests = (await de.get('/api/interests.php')).body.interests;
    expect(interests.find((i: { key: string }) => i.key === 'travelling').name).not.toBe('Travelling');
    const regions = (await t.client().get('/api/regions.php?country=nl')).body.regions;
    expect(regions.map((r: { name: string }) => r.name)).toContain('Utrecht');
    expect(regions.every((r: { country: string }) => r.country === 'NL')).toBe(true);
  });
});
