import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies, sites } from '../db/schema.ts';
import type { Language } from '#common/languages.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { TERMS_BASE_DATE } from './site-pages.ts';

describe.each(DATABASE_KINDS)('static pages on %s', (kind) => {
  let t: TestApp;
  /** The page of the test's site as a visitor reads it, in a language and from a country. */
  let page: (slug: string, over?: { language?: Language; requestCountry?: string | null }) => Promise<{ title: string; html: string }>;
  let companyId: number;

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    const site = await t.services.settings.siteForHost('localhost');
    [{ companyId }] = await t.database.db.select({ companyId: sites.companyId }).from(sites).where(eq(sites.id, site.id));
    page = (slug, over = {}) => t.services.content.sitePage({ kind: 'visitor', siteId: site.id }, { slug, language: 'en', requestCountry: null, ...over });
  });
  afterAll(() => t.close());

  async function termsWithCompanyAdded(added: Date, language: Language = 'en') {
    await t.database.db.update(companies).set({ added }).where(eq(companies.id, companyId));
    await t.services.settings.invalidateSites();
    return (await page('terms', { language })).html;
  }

  it('dates the terms 1 December 2023, 12:00 UTC for a company added before then', async () => {
    expect(TERMS_BASE_DATE.toISOString()).toBe('2023-12-01T12:00:00.000Z');
    expect(await termsWithCompanyAdded(new Date('2021-03-04T08:00:00Z'))).toContain('Version: 1 December 2023 at 12:00 UTC');
    expect(await termsWithCompanyAdded(new Date('2023-12-01T11:59:59Z'))).toContain('Version: 1 December 2023 at 12:00 UTC');
    expect(await termsWithCompanyAdded(new Date('2020-01-01T00:00:00Z'), 'nl')).toContain('1 december 2023 om 12:00 UTC');
  });

  it('dates the terms with the company\'s added date when that is later', async () => {
    expect(await termsWithCompanyAdded(new Date('2025-07-09T16:45:00Z'))).toContain('Version: 9 July 2025 at 16:45 UTC');
    expect(await termsWithCompanyAdded(new Date('2025-07-09T16:45:00Z'), 'de')).toContain('9. Juli 2025 um 16:45 UTC');
  });

  it('shows English-speaking US visitors the US privacy notice, everyone else the normal page', async () => {
    const us = await page('privacy', { requestCountry: 'US' });
    expect(us.title).toBe('Privacy Policy for US Residents');
    expect(us.html).toContain('id="notice-at-collection"');
    expect(us.html).toContain('id="your-privacy-choices"');

    const nl = await page('privacy', { requestCountry: 'NL' });
    expect(nl.title).toBe('Privacy Policy');
    expect(nl.html).toContain('General Data Protection Regulation');
    expect((await page('privacy', { requestCountry: null })).title).toBe('Privacy Policy');

    // A US visitor reading Dutch gets the Dutch page; other pages have no US variant.
    const dutch = await page('privacy', { requestCountry: 'US', language: 'nl' });
    expect(dutch.html).not.toContain('notice-at-collection');
    expect(dutch.title).toBe((await page('privacy', { requestCountry: 'NL', language: 'nl' })).title);
    expect((await page('cookies', { requestCountry: 'US' })).title).toBe('Cookie Policy');
  });

  it('answers 404 for a page that does not exist', async () => {
    await expect(page('nope')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});
