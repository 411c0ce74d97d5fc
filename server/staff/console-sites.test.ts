import { count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteSettingsSchema } from '#common/site-settings.ts';
import { createApp } from '../app.ts';
import { auditLog, companies, paymentAccounts, sites } from '../db/schema.ts';
import { loadEnv } from '../env.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { createLogger } from '../infra/logger.ts';
import { localStorage } from '../infra/storage.ts';
import { pagesHandler } from '../pages.ts';
import { createServices } from '../services.ts';
import { createStaff, type TestStaff, refusal } from '../../tests/helpers/staff.ts';
import { pageBuild } from '../../tests/helpers/page-build.ts';
import { pageRequests } from '../../tests/helpers/page-requests.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';

type Form = Record<string, unknown>;

/** A value each field of the site's form refuses, with the message the field shows. Check boxes take any value. */
const BAD: Record<string, [unknown, string]> = {
  name: ['  ', 'errors.field_required'],
  domain: ['http://amora.example/path', 'errors.domain_invalid'],
  domainLanguage: ['dutch', 'errors.invalid_input'],
  companyId: ['abc', 'errors.invalid_input'],
  niche: ['9', 'errors.number_out_of_range'],
  countries: [['XX'], 'errors.invalid_choice'],
  geoipDefaultCountry: ['XX', 'errors.invalid_choice'],
  indexTitle: ['x'.repeat(121), 'errors.field_too_long'],
  description: ['x'.repeat(301), 'errors.field_too_long'],
  mailName: ['x'.repeat(61), 'errors.field_too_long'],
  themePrimary: ['teal', 'errors.colour_invalid'],
  themeSecondary: ['#12345', 'errors.colour_invalid'],
  themeDark: ['red', 'errors.colour_invalid'],
  logoUrl: ['javascript:alert(1)', 'errors.url_invalid'],
  cdnPrefix: ['ftp://cdn.example', 'errors.url_invalid'],
  signups: ['some', 'errors.invalid_choice'],
  loggedOutSearch: ['maybe', 'errors.invalid_choice'],
  loggedOutSearchTrafficsource: ['maybe', 'errors.invalid_choice'],
  supportEmail: ['not-an-address', 'errors.email_invalid'],
  supportPhone: ['call me', 'errors.phone_invalid'],
  messageCredits: ['-1', 'errors.number_out_of_range'],
  signupCredits: ['1.5', 'errors.number_out_of_range'],
  freeMessages: ['101', 'errors.number_out_of_range'],
  photoCredits: ['many', 'errors.number_out_of_range'],
  giftCredits: ['10001', 'errors.number_out_of_range'],
  messageLength: ['0', 'errors.number_out_of_range'],
  refundDays: ['', 'errors.number_out_of_range'],
  minimumMessageCosts: ['CH six CHF', 'errors.minimum_costs_invalid'],
  visibleProfileFields: [['shoe_size'], 'errors.invalid_choice'],
  searchFields: [['height'], 'errors.invalid_choice'],
  interests: [['knitting'], 'errors.invalid_choice'],
  photoModeration: ['never', 'errors.invalid_choice'],
  visitorNewMemberDays: ['366', 'errors.number_out_of_range'],
  fictionalSingular: ['x'.repeat(61), 'errors.field_too_long'],
  fictionalPlural: ['x'.repeat(61), 'errors.field_too_long'],
  fictionalWarning: ['x'.repeat(501), 'errors.field_too_long'],
  fictionalIcon: ['x'.repeat(41), 'errors.field_too_long'],
};
const FLAGS = ['enableSiteEntryPopup', 'memberResell', 'visibleProfileNotes', 'geoipPreselect'];

const COMPANY = {
  name: 'Liefde B.V.', address: 'Herengracht 10', city: 'Amsterdam', country: 'NL', kvk: '87654321', vatNumbers: 'NL009876543B01',
  tradenames: 'Liefde\nLiefdevol', supportPhone: '+31 20 555 01 02', deleteDiscount: '40',
};
const MOLLIE_KEY = 'live_abcdefghijklmnopqrstuvwxyz0123WXYZ';


describe.each(DATABASE_KINDS)('the console\'s sites and companies on %s', (kind) => {
  let t: TestApp;
  let admin: TestStaff;
  let siteAdmin: TestStaff;
  const requests = pageRequests(() => t);
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, pages: true });
    admin = await createStaff(t, { roles: ['admin'] });
    siteAdmin = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId] });
  });
  afterAll(() => t.close());

  const form = async (): Promise<Form> => (await t.services.console.siteSettings(admin.actor, t.siteId)).values;
  const siteRow = async () => (await t.database.db.select().from(sites).where(eq(sites.id, t.siteId)))[0];
  const auditRows = async () => (await t.database.db.select({ n: count() }).from(auditLog))[0].n;
  const lastAudit = async () => (await t.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];

  it('names every setting of the form in a bad-input case, and each bad field alone is refused with its message, changing nothing', async () => {
    expect([...Object.keys(BAD), ...FLAGS].sort()).toEqual(Object.keys(siteSettingsSchema.shape).sort());
    const good = await form();
    const before = await siteRow();
    const rows = await auditRows();
    for (const [field, [value, message]] of Object.entries(BAD)) {
      expect(await refusal(t.services.console.updateSite(siteAdmin.actor, t.siteId, { ...good, [field]: value })), field)
        .toEqual({ status: 400, code: 'invalid_input', fields: { [field]: message } });
    }
    // A new site is checked by the same schema.
    expect(await refusal(t.services.console.createSite(admin.actor, { ...good, domain: 'nieuw.test', themeDark: 'black' })))
      .toEqual({ status: 400, code: 'invalid_input', fields: { themeDark: 'errors.colour_invalid' } });
    expect(await refusal(t.services.console.updateSite(siteAdmin.actor, t.siteId, 'not a form'))).toMatchObject({ status: 400 });
    expect(await siteRow()).toEqual(before);
    expect(await auditRows()).toBe(rows);
  });

  it('saves a change with one audit row holding the changed fields before and after; saving again writes nothing', async () => {
    const good = await form();
    const changed = {
      ...good, name: 'Amora Plus', themePrimary: '#A1B2C3', countries: ['NL', 'BE'], minimumMessageCosts: 'ch 7 chf\nNO 6 NOK', enableSiteEntryPopup: '',
      interests: ['music', 'wine'],
    };
    expect(await t.services.console.updateSite(siteAdmin.actor, t.siteId, changed, { ip: '192.0.2.7' }))
      .toEqual({ changed: ['name', 'countries', 'themePrimary', 'enableSiteEntryPopup', 'minimumMessageCosts', 'interests'] });
    const row = await lastAudit();
    expect(row).toMatchObject({ action: 'site.update', objectType: 'site', objectId: String(t.siteId), staffId: siteAdmin.actor.staffId, ip: '192.0.2.7' });
    expect(row.before).toEqual({
      name: 'Amora', countries: expect.any(Array), themePrimary: '#0f8b8d', enableSiteEntryPopup: true,
      minimumMessageCosts: { CH: { costs: 6, currency: 'CHF' }, NO: { costs: 6, currency: 'NOK' } }, interests: [],
    });
    expect(row.after).toEqual({
      name: 'Amora Plus', countries: ['NL', 'BE'], themePrimary: '#a1b2c3', enableSiteEntryPopup: false,
      minimumMessageCosts: { CH: { costs: 7, currency: 'CHF' }, NO: { costs: 6, currency: 'NOK' } }, interests: ['music', 'wine'],
    });
    // The members' settings follow at once on this instance: the interests a member chooses from are the site's.
    expect((await t.client().get('/api/settings.php')).body.settings).toMatchObject({ name: 'Amora Plus', interests: ['music', 'wine'] });

    const rows = await auditRows();
    expect(await t.services.console.updateSite(siteAdmin.actor, t.siteId, await form())).toEqual({ changed: [] });
    expect(await auditRows()).toBe(rows);
    await t.services.console.updateSite(admin.actor, t.siteId, good);
  });

  it('refuses a site admin moving the site to another company, a taken domain, and an unknown site', async () => {
    const good = await form();
    const [other] = await t.database.db.insert(companies).values({ name: 'Other', address: 'a', kvk: '1', city: 'b', country: 'NL' }).returning();
    const before = await siteRow();
    expect(await refusal(t.services.console.updateSite(siteAdmin.actor, t.siteId, { ...good, companyId: String(other.id) }))).toMatchObject({ status: 403 });
    // A site admin chooses among the site's own company only.
    expect((await t.services.console.siteSettings(siteAdmin.actor, t.siteId)).companies.map((c) => c.id)).toEqual([before.companyId]);
    expect(await refusal(t.services.console.updateSite(admin.actor, t.siteId, { ...good, companyId: '999999' })))
      .toEqual({ status: 400, code: 'invalid_input', fields: { companyId: 'errors.invalid_choice' } });
    const { id } = await t.services.console.createSite(admin.actor, { ...good, name: 'Tweede', domain: 'www.Tweede.test' });
    expect((await t.database.db.select().from(sites).where(eq(sites.id, id)))[0]).toMatchObject({ domain: 'tweede.test', isDefault: false });
    expect(await lastAudit()).toMatchObject({ action: 'site.create', objectId: String(id) });
    expect(await refusal(t.services.console.updateSite(admin.actor, t.siteId, { ...good, domain: 'tweede.test' })))
      .toEqual({ status: 409, code: 'invalid_input', fields: { domain: 'errors.domain_taken' } });
    // The site admin of the first site does not reach the new one.
    expect(await refusal(t.services.console.siteSettings(siteAdmin.actor, id))).toMatchObject({ status: 403 });
    expect((await t.services.console.siteList(siteAdmin.actor)).map((s) => s.id)).toEqual([t.siteId]);
    expect(await refusal(t.services.console.siteSettings(admin.actor, 999_999))).toMatchObject({ status: 404 });
    expect(await siteRow()).toEqual(before);
  });

  it('keeps companies with their details, audited, and a payment account whose key never comes back', async () => {
    const { id } = await t.services.console.createCompany(admin.actor, COMPANY);
    expect(await t.services.console.company(admin.actor, id)).toMatchObject({
      values: { ...COMPANY, tradenames: 'Liefde\nLiefdevol' }, account: null,
    });
    expect(await refusal(t.services.console.updateCompany(admin.actor, id, { ...COMPANY, country: 'XX', deleteDiscount: '95' })))
      .toEqual({ status: 400, code: 'invalid_input', fields: { country: 'errors.country_required', deleteDiscount: 'errors.number_out_of_range' } });
    expect(await t.services.console.updateCompany(admin.actor, id, { ...COMPANY, city: 'Utrecht' })).toEqual({ changed: ['city'] });
    expect(await lastAudit()).toMatchObject({ action: 'company.update', before: { city: 'Amsterdam' }, after: { city: 'Utrecht' } });
    expect(await refusal(t.services.console.createCompany(siteAdmin.actor, COMPANY))).toMatchObject({ status: 403 });

    // A key that is no Mollie key, or none at all, changes nothing.
    const rows = await auditRows();
    expect(await refusal(t.services.console.setPaymentAccount(admin.actor, id, { provider: 'mollie', apiKey: 'sk_live_123' })))
      .toEqual({ status: 400, code: 'invalid_input', fields: { apiKey: 'errors.payment_key_invalid' } });
    expect(await refusal(t.services.console.setPaymentAccount(admin.actor, id, { provider: 'mollie', apiKey: '' })))
      .toEqual({ status: 400, code: 'invalid_input', fields: { apiKey: 'errors.payment_key_required' } });
    expect(await refusal(t.services.console.setPaymentAccount(admin.actor, id, { provider: 'paypal' }))).toMatchObject({ status: 400 });
    expect(await auditRows()).toBe(rows);
    expect(await t.database.db.select().from(paymentAccounts).where(eq(paymentAccounts.companyId, id))).toEqual([]);

    expect(await t.services.console.setPaymentAccount(admin.actor, id, { provider: 'mollie', apiKey: MOLLIE_KEY })).toEqual({ provider: 'mollie', keyEnd: 'WXYZ' });
    const stored = await t.database.db.select().from(paymentAccounts).where(eq(paymentAccounts.companyId, id));
    expect(stored).toMatchObject([{ provider: 'mollie', apiKey: MOLLIE_KEY }]);
    const audit = await lastAudit();
    expect(audit).toMatchObject({ action: 'company.payment_account', before: null, after: { provider: 'mollie', key: 'changed' } });
    // An empty key keeps the stored one: nothing changed, nothing written.
    expect(await t.services.console.setPaymentAccount(admin.actor, id, { provider: 'mollie', apiKey: '' })).toEqual({ provider: 'mollie', keyEnd: 'WXYZ' });
    expect((await lastAudit()).id).toBe(audit.id);
    await t.services.console.setPaymentAccount(admin.actor, id, { provider: 'test' });
    expect(await lastAudit()).toMatchObject({ before: { provider: 'mollie', key: 'set' }, after: { provider: 'test', key: 'none' } });
    await t.services.console.setPaymentAccount(admin.actor, id, { provider: 'mollie', apiKey: MOLLIE_KEY });

    // Nothing a screen reads, and no audit row, carries the key.
    const seen = JSON.stringify([
      await t.services.console.company(admin.actor, id), await t.services.console.companyList(admin.actor),
      await t.database.db.select().from(auditLog),
    ]);
    expect(seen).not.toContain(MOLLIE_KEY.slice(5, -4));
    expect(await t.services.console.company(admin.actor, id)).toMatchObject({ account: { provider: 'mollie', keyEnd: 'WXYZ' } });
    // Nor does the company's page.
    const page = await requests.textOf(await requests.page(`/console/companies/${id}`, (await admin.cookie()).cookie));
    expect(page).toContain('WXYZ');
    expect(page).not.toContain(MOLLIE_KEY.slice(5, -4));
  });

  it('answers the site form posted to its page: a bad field beside its field with 400, a good one saved and shown to members', async () => {
    const { cookie } = await siteAdmin.cookie();
    const fields = (values: Form) => {
      const body: Record<string, string> = {};
      for (const [k, v] of Object.entries(values)) if (!Array.isArray(v) && v !== false) body[k] = v === true ? 'on' : String(v);
      return body;
    };
    const good = await form();
    const before = await siteRow();
    // Lists post one field per ticked box: a form without them has none ticked, and the site has no country then.
    const bad = await requests.postForm(`/console/sites/${t.siteId}`, { ...fields(good), themePrimary: 'teal' }, cookie);
    expect(bad.status).toBe(400);
    const text = await requests.textOf(bad);
    expect(text).toContain('Enter a colour as #rrggbb');
    expect(text).toContain('Countries');
    expect(await siteRow()).toEqual(before);

    const body = new URLSearchParams({ ...fields(good), name: 'Amora Page', themePrimary: '#123456' });
    for (const c of good.countries as string[]) body.append('countries', c);
    for (const f of good.searchFields as string[]) body.append('searchFields', f);
    for (const f of good.visibleProfileFields as string[]) body.append('visibleProfileFields', f);
    const saved = await t.app.request(`http://localhost/console/sites/${t.siteId}`, {
      method: 'POST', body: body.toString(), headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded', cookie },
    }, { incoming: { socket: { remoteAddress: '192.0.2.200' } } });
    expect(saved.status).toBe(200);
    expect(await siteRow()).toMatchObject({ name: 'Amora Page', themePrimary: '#123456', countries: good.countries });
    expect(await lastAudit()).toMatchObject({ action: 'site.update', before: { name: before.name, themePrimary: before.themePrimary }, after: { name: 'Amora Page', themePrimary: '#123456' } });
    expect(await requests.textOf(await requests.page('/'))).toContain('Amora Page');
    // Staff of the site who are not admins get the console's 403.
    const support = await createStaff(t, { roles: ['support'], siteIds: [t.siteId] });
    expect((await requests.postForm(`/console/sites/${t.siteId}`, fields(good), (await support.cookie()).cookie)).status).toBe(403);
    await t.services.console.updateSite(admin.actor, t.siteId, good);
  });

  it('a setting saved through the console on one instance reaches a member page of a second instance without a restart', async () => {
    // A second server over the same database and bus (no Redis here: the version stamp lives in the database).
    const services = createServices({ db: t.database.db, clock: t.clock, storage: localStorage(t.photosDir), logger: createLogger('error') });
    const second = createApp({
      services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'test' }), logger: createLogger('silent'),
      pages: pagesHandler(async () => (await pageBuild()).build, 'production'),
    });
    const home = async () => (await (await second.request('http://localhost/', { headers: { host: 'localhost' } })).text()).replaceAll('<!-- -->', '');
    const good = await form();
    expect(await home()).toContain(`${good.name}`);
    expect(await home()).not.toContain('Amora Elsewhere');

    await t.services.console.updateSite(siteAdmin.actor, t.siteId, { ...good, name: 'Amora Elsewhere', themeDark: '#101010' });
    // Within the site cache's check interval of the shared version stamp: one second.
    t.clock.advance(1_000);
    const page = await home();
    expect(page).toContain('Amora Elsewhere');
    const css = await (await second.request('http://localhost/site.css', { headers: { host: 'localhost' } })).text();
    expect(css).toContain('--amora-color-dark:#101010');
    await t.services.console.updateSite(admin.actor, t.siteId, good);
  });
});
