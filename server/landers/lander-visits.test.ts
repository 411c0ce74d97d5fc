import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { landerVisits } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { isBot } from './lander-visits.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

describe('which user agents are bots', () => {
  it('knows crawlers, previews and scripts, and lets browsers through', () => {
    for (const agent of [undefined, '', 'Googlebot/2.1 (+http://www.google.com/bot.html)', 'facebookexternalhit/1.1', 'curl/8.5.0', 'python-requests/2.31', 'Mozilla/5.0 HeadlessChrome/140.0.0.0']) {
      expect(isBot(agent), String(agent)).toBe(true);
    }
    for (const agent of [BROWSER, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1']) {
      expect(isBot(agent), agent).toBe(false);
    }
  });
});

describe.each(DATABASE_KINDS)('visits to landers on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 12, pages: true });
  });
  afterAll(() => t.close());

  const visits = async (lander: string) => {
    const day = t.clock().toISOString().slice(0, 10);
    const [row] = await t.database.db.select().from(landerVisits)
      .where(and(eq(landerVisits.siteId, t.siteId), eq(landerVisits.lander, lander), eq(landerVisits.day, day)));
    return row?.visits ?? 0;
  };
  const open = (path: string, headers: Record<string, string> = {}) => t.app.request(`http://localhost${path}`, { headers: { 'user-agent': BROWSER, ...headers } });

  it('counts a visitor once per lander within half an hour, not bots, and not a page that is not served', async () => {
    const first = await open('/landers/gallery/women');
    expect(first.status).toBe(200);
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^amora\.lv=gallery;/);
    expect(cookie).toMatch(/Max-Age=1800/);
    expect(await visits('gallery')).toBe(1);

    // The same browser again: its cookie says it was counted. Another lander of it counts, and is added to the cookie.
    const jar = cookie.split(';')[0];
    expect((await open('/landers/gallery', { cookie: jar })).status).toBe(200);
    expect(await visits('gallery')).toBe(1);
    const video = await open('/landers/video', { cookie: jar });
    expect(video.status).toBe(200);
    expect(video.headers.get('set-cookie')).toMatch(/^amora\.lv=gallery\.video;/);
    expect(await visits('video')).toBe(1);

    // A new visitor counts; a bot, a forged cookie value and a malformed slug's 404 do not.
    await open('/landers/gallery', { cookie: 'amora.lv=nonsense' });
    expect(await visits('gallery')).toBe(2);
    expect((await open('/landers/gallery', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).status).toBe(200);
    expect((await open('/landers/gallery/Not.A.Slug')).status).toBe(404);
    expect(await visits('gallery')).toBe(2);

    // The map lander and the swipe lander count under their own names.
    await open('/landers/maplanding/nl');
    await open('/landers/tinderswipe');
    expect([await visits('maplanding'), await visits('tinderswipe')]).toEqual([1, 1]);
  });

  it('counts on the day of the clock, in one row per site, lander and day', async () => {
    t.clock.advance(24 * 3_600_000);
    await open('/landers/gallery');
    await open('/landers/gallery');
    expect(await visits('gallery')).toBe(2);
    const rows = await t.database.db.select().from(landerVisits).where(and(eq(landerVisits.siteId, t.siteId), eq(landerVisits.lander, 'gallery')));
    expect(rows.map((row) => row.visits).sort()).toEqual([2, 2]);
    // A signed-in member is no visitor (the page sends them on): nothing counts.
    expect(await t.services.landerVisits.count({ kind: 'member', userId: t.demoUserId, siteId: t.siteId }, { lander: 'gallery', userAgent: BROWSER, seen: [] })).toBe(false);
    expect(await visits('gallery')).toBe(2);
  });
});
