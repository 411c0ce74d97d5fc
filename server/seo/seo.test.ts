import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, sites } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';
import { visitorNoindex } from './seo.routes.ts';

describe('which visitor answers say noindex', () => {
  it('the members\' area and its sub-pages, not the public pages or a member\'s landers', () => {
    for (const path of ['/members', '/members/12', '/members/12/chat', '/chats', '/chats/3', '/likes/m/1', '/credits', '/premium', '/profile'])
      expect(visitorNoindex(path), path).toBe(true);
    for (const path of ['/', '/signup', '/login', '/pricing', '/pages/terms', '/landers/gallery', '/members/12/landing2/anna', '/membership', '/chatsroom'])
      expect(visitorNoindex(path), path).toBe(false);
  });
});

describe('robots.txt and sitemap.xml per site', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0 });
    const [company] = await t.database.db.insert(companies).values({ name: 'Liefde B.V.', address: 'Kerkstraat 1', kvk: '87654321', city: 'Utrecht', country: 'NL' }).returning();
    await t.database.db.insert(sites).values({ domain: 'liefde.example', companyId: company.id, name: 'Liefde' });
  });
  afterAll(() => t.close());

  it('keeps crawlers out of the API and one-off links, and names the sitemap at the site\'s own origin', async () => {
    const res = await t.client({ host: 'www.liefde.example' }).get<string>('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/api/', '/reset-password', '/activate/']) expect(lines).toContain(`Disallow: ${path}`);
    // The members' area is not blocked, so that crawlers read its noindex (below).
    for (const path of ['/chats', '/members', '/credits', '/profile']) expect(lines).not.toContain(`Disallow: ${path}`);
    expect(lines).not.toContain('Disallow: /');
    expect(lines).toContain('Sitemap: https://liefde.example/sitemap.xml');
  });

  it('lists the public pages of each site at its canonical origin, without the language in the URL', async () => {
    const other = await t.client({ host: 'liefde.example' }).get<string>('/sitemap.xml');
    expect(other.headers.get('content-type')).toMatch(/^application\/xml/);
    const locs = [...other.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain('https://liefde.example/');
    expect(locs).toContain('https://liefde.example/pages/terms');
    expect(locs).toContain('https://liefde.example/landers/gallery');
    expect(locs.every((l) => l.startsWith('https://liefde.example/'))).toBe(true);
    expect(locs.some((l) => /\/(en|nl|de)\//.test(l) || l.includes('/members') || l.includes('/chats'))).toBe(false);
    const own = await t.client().get<string>('/sitemap.xml');
    expect(own.body).not.toContain('liefde.example');
  });
});
