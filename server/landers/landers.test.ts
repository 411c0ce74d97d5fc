import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { matchRoutes, type RouteObject } from 'react-router';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import routes from '../../app/routes.ts';
import { photos, profiles, users } from '../db/schema.ts';
import type { RequestContext } from '../http/context.ts';
import { actorFor } from '../actor.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { landerPage, mapLanderPage, memberLanderPage, pageTokenRedirect } from './lander-loaders.server.ts';
import { parseLanderSlug } from './landers.service.ts';
import { landerMap, PIN_MAX, PIN_MIN } from './map.ts';
import mapFrames from './map-frames.json' with { type: 'json' };
import { createPageTokens, loadPageTokens, pageTokenTarget, type PageTokenTable } from './page-tokens.ts';
import { CONTENT_DIR } from '../paths.ts';
import { RESERVED_TOKENS } from '#common/site-content.ts';

/** What a loader throws: a redirect Response, or React Router's data(null, { status }). */
async function thrown(work: () => unknown): Promise<{ status: number; location: string | null }> {
  try {
    await work();
  } catch (error) {
    if (error instanceof Response) return { status: error.status, location: error.headers.get('location') };
    const init = (error as { init?: { status?: number } }).init;
    if (init?.status) return { status: init.status, location: null };
    throw error;
  }
  throw new Error('the loader did not throw');
}

describe('parseLanderSlug', () => {
  it('reads gender and country words, keeps other words as a label, and refuses what is not a URL word', () => {
    expect(parseLanderSlug(undefined)).toEqual({});
    expect(parseLanderSlug('women')).toEqual({ gender: 'female' });
    expect(parseLanderSlug('men-nl')).toEqual({ gender: 'male', country: 'NL' });
    expect(parseLanderSlug('summer-sale-de')).toEqual({ country: 'DE' });
    expect(parseLanderSlug('summer-sale')).toEqual({});
    // "xx" is no site country; only the first gender word counts.
    expect(parseLanderSlug('xx-women-men')).toEqual({ gender: 'female' });
    for (const bad of ['Women', 'a b', 'a.b', '-a', 'a-', 'ä', 'x'.repeat(61), '%00']) expect(parseLanderSlug(bad)).toBeNull();
  });
});

describe('page tokens', () => {
  const table: PageTokenTable = {
    'example.com': {
      spring: { lander: 'gallery', slug: 'women', tracking: { network: 'mail', sub1: 'spring' } },
      help: { page: 'faq', tracking: { network: 'partner' } },
    },
  };

  it('resolve by the site; unknown tokens and other sites’ tokens are none', async () => {
    const stored = { spring: { lander: 'gallery', slug: 'women', page: null, tracking: { network: 'mail', sub1: 'spring' } } };
    const tokens = createPageTokens({ texts: async (siteId) => ({ tokens: siteId === 1 ? stored : {}, pages: {} }) });
    expect(await tokens.resolve(1, 'spring')).toEqual({ lander: 'gallery', slug: 'women', tracking: { network: 'mail', sub1: 'spring' } });
    expect(await tokens.resolve(1, 'autumn')).toBeNull();
    expect(await tokens.resolve(2, 'spring')).toBeNull();
    // Object prototype names are not tokens.
    expect(await tokens.resolve(1, 'constructor')).toBeNull();
    expect(await tokens.resolve(1, '__proto__')).toBeNull();
  });

  it('lead to the lander or page with the token’s tracking; other parameters come along, the token’s win', () => {
    const q = new URLSearchParams('network=other&sub2=x&t=5');
    expect(pageTokenTarget(table['example.com'].spring, q)).toBe('/landers/gallery/women?network=mail&sub2=x&t=5&sub1=spring');
    expect(pageTokenTarget(table['example.com'].help, new URLSearchParams())).toBe('/pages/faq?network=partner');
    expect(pageTokenTarget({ page: 'complaints', tracking: {} }, new URLSearchParams())).toBe('/complaints');
  });

  it('a table with a mistake stops the start with the reason; a missing file is an empty table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'amora-tokens-'));
    try {
      const write = (value: unknown) => {
        writeFileSync(join(dir, 't.json'), JSON.stringify(value));
        return () => loadPageTokens(join(dir, 't.json'));
      };
      expect(write({ 'a.com': { x1: { lander: 'nosuch' } } })).toThrow(/x1/);
      expect(write({ 'a.com': { x1: { lander: 'gallery', page: 'faq' } } })).toThrow(/either a lander or a page/);
      expect(write({ 'a.com': { x1: { lander: 'tinderswipe', slug: 'women' } } })).toThrow(/slug/);
      expect(write({ 'a.com': { 'Not A Word': { page: 'faq' } } })).toThrow();
      expect(write({ 'a.com': { x1: { page: 'faq', tracking: { network: 'a\u0000b' } } } })).toThrow();
      expect(write({ 'a.com': { x1: { page: 'faq', tracking: { campaign: 'x' } } } })).toThrow();
      expect(loadPageTokens(join(dir, 'missing.json'))).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the shipped table has the demo site’s two examples', () => {
    const shipped = loadPageTokens(join(CONTENT_DIR, 'page-tokens.json'));
    expect(Object.keys(shipped.localhost)).toHaveLength(2);
  });
});

describe('the route table', () => {
  /** app/routes.ts as route objects, to ask React Router's own matcher which route a path reaches. */
  const toObjects = (entries: RouteConfigEntry[]): RouteObject[] => entries.map((e) => ({
    id: e.id, path: e.path, index: e.index, children: e.children ? toObjects(e.children) : undefined,
  }) as RouteObject);
  const routeFor = (path: string) => matchRoutes(toObjects(routes), path)?.at(-1)?.route.id;

  it('real routes win over tokens; lander names are their own routes and unknown ones reach the 404', () => {
    expect(routeFor('/nearby')).toBe('page-token');
    expect(routeFor('/login')).toBe('login');
    expect(routeFor('/pricing')).toBe('pricing');
    expect(routeFor('/members')).toBe('members');
    expect(routeFor('/landers/gallery')).toBe('landers-gallery');
    expect(routeFor('/landers/gallery/women-nl')).toBe('landers-gallery');
    expect(routeFor('/landers/nosuch')).toBe('not-found');
    expect(routeFor('/landers/gallery/a/b')).toBe('not-found');
  });

  it('refuse as a token every first path word a route takes (the console would store a token nobody reaches)', () => {
    const firstWords = new Set<string>();
    const walk = (entries: RouteConfigEntry[], prefix: string) => {
      for (const e of entries) {
        const path = [prefix, e.path ?? ''].filter(Boolean).join('/');
        const word = path.split('/')[0];
        if (word && !word.startsWith(':') && word !== '*') firstWords.add(word);
        if (e.children) walk(e.children, path);
      }
    };
    walk(routes, '');
    expect(firstWords.size).toBeGreaterThan(10);
    for (const word of firstWords) expect(RESERVED_TOKENS, word).toContain(word);
  });
});

describe.each(DATABASE_KINDS)('landers on %s', (kind) => {
  let t: TestApp;
  let ctx: (over?: Partial<RequestContext>) => RequestContext;
  const hidden: number[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 40 });
    const site = await t.services.settings.siteForHost('localhost');
    ctx = (over = {}) => ({ services: t.services, site, userId: null, actor: actorFor(site.id, over.userId ?? null), geoipCountry: null, ...over }) as RequestContext;
    // Four members no visitor may see on a lander: invisible, deleted, disabled, and one whose photo is not approved.
    const rows = await t.database.db.select({ id: profiles.userId }).from(profiles).where(inArray(profiles.userId,
      (await t.database.db.select({ id: users.id }).from(users).where(eq(users.passwordHash, '!demo'))).map((u) => u.id).slice(0, 4)));
    const [invisible, deleted, disabled, pending] = rows.map((r) => r.id);
    hidden.push(invisible, deleted, disabled, pending);
    await t.database.db.update(users).set({ invisible: true }).where(eq(users.id, invisible));
    await t.database.db.update(users).set({ status: 'deleted' }).where(eq(users.id, deleted));
    await t.database.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, disabled));
    await t.database.db.update(photos).set({ status: 'pending' }).where(eq(photos.userId, pending));
  });
  afterAll(() => t.close());

  it('show only visible members with an approved photo', async () => {
    const page = await landerPage(ctx(), { lander: 'gallery', search: '', count: 100 });
    const ids = page.profiles.map((p) => p.id);
    expect(ids.length).toBeGreaterThan(20);
    for (const id of hidden) expect(ids).not.toContain(id);
    expect(page.profiles.every((p) => p.main_image?.status === 'active')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('show visitors the shop window: no member newer than the site\'s period, none whose photo no moderator approved; the home page too', async () => {
    const demos = (await landerPage(ctx(), { lander: 'gallery', search: '', count: 100 })).profiles.map((p) => p.id);
    const [fresh, unreviewed] = demos;
    const joined = (days: number) => new Date(t.clock().getTime() - days * 86_400_000);
    await t.database.db.update(profiles).set({ createdAt: joined(6) }).where(eq(profiles.userId, fresh));
    await t.database.db.update(photos).set({ reviewed: false }).where(eq(photos.userId, unreviewed));
    const shown = async () => (await landerPage(ctx(), { lander: 'gallery', search: '', count: 100 })).profiles.map((p) => p.id);
    const home = async () => (await t.services.search.showcase(ctx().actor)).profiles.map((p) => p.id);
    try {
      for (const ids of [await shown(), await home()]) {
        expect(ids).not.toContain(fresh);
        expect(ids).not.toContain(unreviewed);
      }
      // The period is the site's: at 5 days the six-day-old member is shown; the unreviewed photo still is not.
      await t.services.settings.updateSite(t.siteId, { visitorNewMemberDays: 5 });
      expect(await shown()).toContain(fresh);
      expect(await shown()).not.toContain(unreviewed);
      // A member sees everyone the search shows, new or not.
      const member = await t.services.search.search(actorFor(t.siteId, t.demoUserId), { min_age: 18, max_age: 99 });
      expect(member.numResults).toBeGreaterThanOrEqual(demos.length);
    } finally {
      await t.services.settings.updateSite(t.siteId, { visitorNewMemberDays: 7 });
      await t.database.db.update(photos).set({ reviewed: true }).where(eq(photos.userId, unreviewed));
      await t.database.db.update(profiles).set({ createdAt: joined(20) }).where(eq(profiles.userId, fresh));
    }
  });

  it('keep the query string for the sign-up links', async () => {
    const page = await landerPage(ctx(), { lander: 'gallery', search: '?network=partner&sub1=spring', count: 4 });
    expect(page.search).toBe('?network=partner&sub1=spring');
    expect(page.profiles).toHaveLength(4);
  });

  it('show the slug’s gender, and its country first, filled up with others', async () => {
    const women = await landerPage(ctx(), { lander: 'gallery', slug: 'women', search: '', count: 10 });
    expect(women.profiles.every((p) => p.gender === 'female')).toBe(true);
    const nl = await landerPage(ctx(), { lander: 'gallery', slug: 'nl', search: '', count: 12 });
    const dutch = nl.profiles.findIndex((p) => p.country !== 'NL');
    expect(nl.profiles).toHaveLength(12);
    // All Dutch members come before the first one from elsewhere.
    expect(nl.profiles.slice(dutch).every((p) => p.country !== 'NL')).toBe(true);
    expect(nl.country).toBe('NL');
  });

  it('prefer the visitor’s country when the site serves it', async () => {
    const page = await landerPage(ctx({ geoipCountry: 'DE' }), { lander: 'gallery', search: '', count: 5 });
    expect(page.country).toBe('DE');
    const foreign = await landerPage(ctx({ geoipCountry: 'JP' }), { lander: 'gallery', search: '', count: 5 });
    expect(foreign.country).toBeNull();
  });

  it('answer a malformed slug with 404 and send members to the search', async () => {
    expect(await thrown(() => landerPage(ctx(), { lander: 'gallery', slug: 'Not.A.Slug', search: '', count: 4 }))).toEqual({ status: 404, location: null });
    expect(await thrown(() => landerPage(ctx({ userId: t.demoUserId }), { lander: 'gallery', search: '', count: 4 }))).toMatchObject({ status: 302, location: '/members' });
  });

  it('pin a country’s members on its map by region', async () => {
    const page = await mapLanderPage(ctx(), { slug: 'nl', search: '' });
    expect(page.map.country).toBe('NL');
    expect(page.map.image).toBe('/landers/maps/nl.svg');
    const pinned = page.map.pins.flatMap((p) => p.profiles);
    expect(pinned.length).toBe(page.profiles.filter((p) => p.country === 'NL').length);
    expect(pinned.every((p) => p.country === 'NL')).toBe(true);
    // Whole per cents of two digits at most: the page places pins by a class per digit (maplanding.scss).
    for (const pin of page.map.pins) {
      for (const at of [pin.x, pin.y]) {
        expect(Number.isInteger(at)).toBe(true);
        expect(at).toBeGreaterThanOrEqual(PIN_MIN);
        expect(at).toBeLessThanOrEqual(PIN_MAX);
      }
    }
    // A country without a map falls back to the site's first country that has one.
    const site = await t.services.settings.siteForHost('localhost');
    expect((await mapLanderPage(ctx({ geoipCountry: 'JP' }), { search: '' })).country).toBe(site.countries[0]);
  });

  it('show a member on the member landers, but not one a visitor may not see', async () => {
    const [visible] = (await landerPage(ctx(), { lander: 'gallery', search: '', count: 1 })).profiles;
    const page = await memberLanderPage(ctx(), { lander: 'member-landing2', id: String(visible.id), slug: 'spring', search: '?network=x' });
    expect(page.profile.id).toBe(visible.id);
    expect(page.profile.photos.filter((p) => !p.is_main).every((p) => p.locked === 'login')).toBe(true);
    const [, deleted, disabled] = hidden;
    for (const id of [String(deleted), String(disabled), '0', '99999999999', 'abc']) {
      expect(await thrown(() => memberLanderPage(ctx(), { lander: 'member-landing2', id, search: '' }))).toMatchObject({ status: 404 });
    }
    expect(await thrown(() => memberLanderPage(ctx(), { lander: 'member-landing2', id: String(visible.id), slug: 'Bad Slug', search: '' }))).toMatchObject({ status: 404 });
    expect(await thrown(() => memberLanderPage(ctx({ userId: t.demoUserId }), { lander: 'member-landing2', id: String(visible.id), search: '' })))
      .toMatchObject({ status: 302, location: `/members/${visible.id}` });
  });

  it('redirect a token to its lander with its tracking; unknown tokens are 404', async () => {
    const url = new URL('http://localhost/nearby?sub2=flyer-a');
    const first = ctx({ tracking: { sub2: 'flyer-a' }, trackingFirstTouch: true });
    expect(await thrown(() => pageTokenRedirect(first, 'nearby', url)))
      .toEqual({ status: 302, location: '/landers/maplanding?sub2=flyer-a&network=flyer&sub1=nearby' });
    // A first visit keeps the token's parameters (the redirect sets the first-touch cookie); a later one keeps its own.
    expect(first.tracking).toEqual({ network: 'flyer', sub1: 'nearby', sub2: 'flyer-a' });
    const returning = ctx({ tracking: { network: 'earlier' }, trackingFirstTouch: false });
    await thrown(() => pageTokenRedirect(returning, 'nearby', url));
    expect(returning.tracking).toEqual({ network: 'earlier' });
    expect(await thrown(() => pageTokenRedirect(ctx(), 'dating-faq', new URL('http://localhost/dating-faq'))))
      .toEqual({ status: 302, location: '/pages/faq?network=newsletter&sub1=faq' });
    expect(await thrown(() => pageTokenRedirect(ctx(), 'no-such-token', url))).toEqual({ status: 404, location: null });
  });

  it('give the page a frame of the right proportions for every country map', () => {
    // The page's frame is a class per country (no style attribute under the strict CSP, docs/decisions/052), written
    // with the maps by scripts/build-lander-maps.mjs: each must match the drawing the server pins members on.
    const scss = readFileSync(join(import.meta.dirname, '../../app/features/landers/_map-frames.scss'), 'utf8');
    const inScss = Object.fromEntries([...scss.matchAll(/^\s+([a-z]{2}): \(([\d.]+), ([\d.]+)\),$/gm)].map((m) => [m[1].toUpperCase(), { width: Number(m[2]), height: Number(m[3]) }]));
    const frames = mapFrames as Record<string, { width: number; height: number }>;
    expect(Object.keys(inScss).sort()).toEqual(Object.keys(frames).sort());
    for (const [country, frame] of Object.entries(frames)) expect(inScss[country], country).toEqual({ width: frame.width, height: frame.height });
    expect(scss.match(/^\s+[a-z]{2}: /gm)?.length).toBe(Object.keys(frames).length);
  });

  it('join pins that would cover each other, so that every pin is a target of its own', () => {
    const member = (id: number, region: string | null) => ({
      id, name: `M${id}`, age: 30, gender: 'female' as const, country: 'NL', region, status: 'active' as const, main_image: null, fictional: false, online: false,
    });
    // Utrecht, South Holland and the middle of the country (members without a region) lie close together; Groningen is far.
    const map = landerMap('NL', [member(1, 'Utrecht'), member(2, 'Utrecht'), member(3, 'Zuid-Holland'), member(4, null), member(5, 'Groningen')])!;
    const frame = map.width / map.height;
    for (const [i, a] of map.pins.entries()) {
      for (const b of map.pins.slice(i + 1)) expect(Math.hypot((a.x - b.x) * frame, a.y - b.y)).toBeGreaterThanOrEqual(11);
    }
    expect(map.pins.flatMap((p) => p.profiles.map((m) => m.id)).sort()).toEqual([1, 2, 3, 4, 5]);
    // The busiest place keeps its pin and takes the others' members.
    expect(map.pins.find((p) => p.profiles.some((m) => m.id === 1))?.region).toBe('Utrecht');
    expect(map.pins.find((p) => p.profiles.some((m) => m.id === 5))?.profiles.map((m) => m.id)).toEqual([5]);
  });

  it('draw no pins for members of other countries', () => {
    const map = landerMap('NL', [{ id: 1, name: 'A', age: 30, gender: 'female', country: 'BE', region: 'Brussel', status: 'active', main_image: null, fictional: false, online: false }]);
    expect(map?.pins).toEqual([]);
    expect(landerMap('JP', [])).toBeNull();
  });
});
