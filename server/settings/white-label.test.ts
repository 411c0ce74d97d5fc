import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerBuild } from 'react-router';
import { eq } from 'drizzle-orm';
import { accessibleShade, contrastText, nicheHeroImage, nicheSearchDefaults, siteThemeCss, cdnUrl } from '#common/site-theme.ts';
import { NICHES } from '#common/constants.ts';
import { createApp } from '../app.ts';
import { sites } from '../db/schema.ts';
import { createLogger } from '../infra/logger.ts';
import { loadEnv } from '../env.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { buildForCdn } from '../pages.ts';
import { PUBLIC_DIR } from '../paths.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { existsSync } from 'node:fs';

describe.each(DATABASE_KINDS)('white-label sites: theme, logo, niche and CDN on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 6 });
    await t.services.settings.addSite({
      domain: 'Men.Example', name: 'Men Meet', niche: 7, themePrimary: '#1D4ED8', themeSecondary: '#f97316', themeDark: '#0b1f3a',
      logoUrl: '/logos/men-meet.svg', cdnPrefix: 'https://cdn.men.example/static/',
    });
  });
  afterAll(() => t.close());

  it('adds a site that inherits the default site\'s settings and stores its look normalized', async () => {
    const [men] = await t.database.db.select().from(sites).where(eq(sites.domain, 'men.example'));
    const [base] = await t.database.db.select().from(sites).where(eq(sites.isDefault, true));
    expect(men).toMatchObject({
      isDefault: false, companyId: base.companyId, countries: base.countries, niche: 7, themePrimary: '#1d4ed8', cdnPrefix: 'https://cdn.men.example/static',
    });
    await expect(t.services.settings.addSite({ domain: 'men.example' })).rejects.toMatchObject({ status: 409 });
    // Options left out (undefined, as the command line passes them) inherit; the name defaults to the domain.
    const plain = await t.services.settings.addSite({ domain: 'plain.example', name: undefined, niche: undefined, themePrimary: undefined });
    expect(plain).toMatchObject({ name: 'plain.example', niche: base.niche, themePrimary: base.themePrimary, indexTitle: base.indexTitle, countries: base.countries });
  });

  it('answers each host with its own theme, logo, niche and CDN in the public settings', async () => {
    const men = (await t.client({ host: 'men.example' }).get('/api/settings.php')).body.settings;
    expect(men).toMatchObject({
      name: 'Men Meet', niche: 7, theme: { primary: '#1d4ed8', secondary: '#f97316', dark: '#0b1f3a' }, logo_url: '/logos/men-meet.svg',
      cdn_prefix: 'https://cdn.men.example/static',
    });
    const base = (await t.client().get('/api/settings.php')).body.settings;
    expect(base).toMatchObject({ niche: 1, theme: { primary: '#0f8b8d', secondary: '#c2187a', dark: '#2b1740' }, logo_url: '', cdn_prefix: '' });
  });

  it('refuses bad colours, logos, CDN prefixes and niches with 400 and changes nothing', async () => {
    const [men] = await t.database.db.select().from(sites).where(eq(sites.domain, 'men.example'));
    const bad: [string, Record<string, unknown>][] = [
      ['themePrimary', { themePrimary: 'red' }],
      ['themePrimary', { themePrimary: '#12345g' }],
      ['themeDark', { themeDark: '#1234567' }],
      ['themeSecondary', { themeSecondary: '#fff;}body{display:none' }],
      ['logoUrl', { logoUrl: 'javascript:alert(1)' }],
      ['logoUrl', { logoUrl: '//evil.example/logo.svg' }],
      ['logoUrl', { logoUrl: '/logo.svg" onload="x' }],
      ['logoUrl', { logoUrl: 'http://evil.example/logo.svg' }],
      ['cdnPrefix', { cdnPrefix: 'ftp://cdn.example' }],
      ['cdnPrefix', { cdnPrefix: 'http://cdn.example' }],
      ['cdnPrefix', { cdnPrefix: 'https://cdn.example/?x=1' }],
      ['cdnPrefix', { cdnPrefix: "https://cdn.example; script-src 'unsafe-inline'" }],
      ['cdnPrefix', { cdnPrefix: 'https://user:pw@cdn.example' }],
      ['cdnPrefix', { cdnPrefix: 'cdn.example' }],
      ['niche', { niche: 0 }],
      ['niche', { niche: 8 }],
      ['niche', { niche: 2.5 }],
    ];
    for (const [field, patch] of bad) {
      const error = await t.services.settings.updateSite(men.id, patch).catch((e: unknown) => e);
      expect(error, JSON.stringify(patch)).toMatchObject({ status: 400, code: 'invalid_input', details: { [field]: 'errors.invalid_input' } });
    }
    await expect(t.services.settings.addSite({ domain: 'bad.example', themeDark: 'purple' })).rejects.toMatchObject({ status: 400 });
    const [after] = await t.database.db.select().from(sites).where(eq(sites.id, men.id));
    expect(after).toEqual(men);
    expect(await t.database.db.select().from(sites).where(eq(sites.domain, 'bad.example'))).toEqual([]);
    // The database refuses a colour that bypassed the service.
    await expect(t.database.db.update(sites).set({ themePrimary: 'red' }).where(eq(sites.id, men.id))).rejects.toThrow();
  });

  it('accepts short colours, http for local names and empty values, and serves the change at once', async () => {
    const [men] = await t.database.db.select().from(sites).where(eq(sites.domain, 'men.example'));
    const client = t.client({ host: 'men.example' });
    expect((await client.get('/api/settings.php')).body.settings.theme.primary).toBe('#1d4ed8');
    const updated = await t.services.settings.updateSite(men.id, { themePrimary: '#F0A', cdnPrefix: 'http://cdn.localhost:3400/', logoUrl: 'https://cdn.men.example/logo.png' });
    expect(updated).toMatchObject({ themePrimary: '#ff00aa', cdnPrefix: 'http://cdn.localhost:3400', logoUrl: 'https://cdn.men.example/logo.png' });
    expect((await client.get('/api/settings.php')).body.settings).toMatchObject({ theme: { primary: '#ff00aa' }, cdn_prefix: 'http://cdn.localhost:3400' });
    await t.services.settings.updateSite(men.id, { themePrimary: '#1d4ed8', cdnPrefix: 'https://cdn.men.example/static', logoUrl: '/logos/men-meet.svg' });
    const cleared = await t.services.settings.updateSite(men.id, { cdnPrefix: '', logoUrl: '' });
    expect(cleared).toMatchObject({ cdnPrefix: '', logoUrl: '' });
    await t.services.settings.updateSite(men.id, { cdnPrefix: 'https://cdn.men.example/static', logoUrl: '/logos/men-meet.svg' });
  });

  it('lets the CDN origin (and an outside logo) into the Content-Security-Policy of that site\'s pages only', async () => {
    const men = (await t.client({ host: 'men.example' }).get('/offline')).headers.get('content-security-policy')!;
    for (const directive of ['script-src', 'style-src', 'img-src', 'font-src']) {
      expect(men).toMatch(new RegExp(`${directive} [^;]*https://cdn\\.men\\.example(?!/static)`));
    }
    expect(men).not.toMatch(/connect-src [^;]*cdn/);
    expect(men).toMatch(/script-src 'self' 'nonce-[\w+/=]+'/);
    // Styles as scripts: files (this server's and the CDN's) and elements with the nonce; no 'unsafe-inline'.
    expect(men).toMatch(/style-src 'self' 'nonce-[\w+/=]+' https:\/\/cdn\.men\.example;/);
    const base = (await t.client().get('/offline')).headers.get('content-security-policy')!;
    expect(base).not.toContain('cdn.men.example');
    const [row] = await t.database.db.select().from(sites).where(eq(sites.domain, 'men.example'));
    await t.services.settings.updateSite(row.id, { logoUrl: 'https://brand.example/men.svg' });
    const withLogo = (await t.client({ host: 'men.example' }).get('/offline')).headers.get('content-security-policy')!;
    expect(withLogo).toMatch(/img-src [^;]*https:\/\/brand\.example/);
    expect(withLogo).not.toMatch(/script-src [^;]*brand\.example/);
    await t.services.settings.updateSite(row.id, { logoUrl: '/logos/men-meet.svg' });
  });

  it('serves each site\'s colours as its own stylesheet, kept for a year under its version and renewed when they change', async () => {
    const men = t.client({ host: 'men.example' });
    const base = t.client();
    const [row] = await t.database.db.select().from(sites).where(eq(sites.domain, 'men.example'));
    const sheet = t.services.settings.themeStylesheet(row);
    expect(sheet.href).toMatch(/^\/site\.css\?v=[\w-]{16}$/);
    // The host picks the site: each gets its own colours at the same path.
    const own = await men.get(sheet.href);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(own.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(own.body).toBe(siteThemeCss({ primary: '#1d4ed8', secondary: '#f97316', dark: '#0b1f3a' }));
    expect(own.body).toContain('--amora-color-primary:#1d4ed8;');
    const other = await base.get(sheet.href);
    expect(other.body).toContain('--amora-color-primary:#0d7c7d;');
    // Not this site's version: its current colours, asked for again on every use.
    expect(other.headers.get('cache-control')).toBe('no-cache');
    expect((await base.get('/site.css')).headers.get('cache-control')).toBe('no-cache');
    // A version that names nothing is no error.
    for (const v of ['x', '%00', '<script>', 'a'.repeat(500)]) {
      const odd = await men.get(`/site.css?v=${encodeURIComponent(v)}`);
      expect(odd.status, v).toBe(200);
      expect(odd.body, v).toBe(own.body);
      expect(odd.headers.get('cache-control'), v).toBe('no-cache');
    }
    // A copy the browser holds is still good while the colours are the same.
    expect((await men.get(sheet.href, { 'if-none-match': own.headers.get('etag')! })).status).toBe(304);
    // New colours: a new version in the pages' link, and the old URL is no longer kept.
    await t.services.settings.updateSite(row.id, { themePrimary: '#7c3aed' });
    const changed = t.services.settings.themeStylesheet((await t.services.settings.siteForHost('men.example')));
    expect(changed.version).not.toBe(sheet.version);
    const renewed = await men.get(changed.href);
    expect(renewed.body).toContain('--amora-color-primary:#7c3aed;');
    expect(renewed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const stale = await men.get(sheet.href, { 'if-none-match': own.headers.get('etag')! });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('cache-control')).toBe('no-cache');
    expect(stale.body).toBe(renewed.body);
    await t.services.settings.updateSite(row.id, { themePrimary: '#1d4ed8' });
    expect(t.services.settings.themeStylesheet((await t.services.settings.siteForHost('men.example'))).version).toBe(sheet.version);
  });

  it('gives the installed app each site\'s own theme colour', async () => {
    const men = (await t.client({ host: 'men.example' }).get('/manifest.webmanifest')).body;
    expect(men).toMatchObject({ name: 'Men Meet', theme_color: '#0b1f3a', background_color: '#0b1f3a' });
    expect((await t.client().get('/manifest.webmanifest')).body).toMatchObject({ theme_color: '#2b1740' });
    const offline = await t.client({ host: 'men.example' }).get('/offline');
    expect(offline.body).toContain('<meta name="theme-color" content="#0b1f3a">');
  });

  it('shows landers without a gender in their campaign slug the niche\'s members', async () => {
    const [men] = await t.database.db.select().from(sites).where(eq(sites.domain, 'men.example'));
    const lander = (site: typeof men, slug?: string) => t.services.landers.page({ kind: 'visitor', siteId: site.id }, { slug, count: 6, visitorCountry: null });
    const gay = await lander(men);
    expect(gay.gender).toBe('male');
    expect(gay.profiles.length).toBeGreaterThan(0);
    expect(gay.profiles.every((p) => p.gender === 'male')).toBe(true);
    expect((await lander(men, 'women')).gender).toBe('female');
    const [base] = await t.database.db.select().from(sites).where(eq(sites.isDefault, true));
    expect((await lander(base)).gender).toBeNull();
  });

  it('lets other origins embed a public main photo, but not a private file', async () => {
    const viewer = t.client({ host: 'men.example' });
    const page = (await viewer.get('/api/members.php?min_age=18&max_age=99')).body;
    const photo = page.profiles.find((p: { main_image: unknown }) => p.main_image).main_image;
    const res = await t.client({ host: 'cdn.men.example' }).get(`/photos/${photo.filename}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect((await t.client().get('/api/settings.php')).headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });
});

describe('white-label helpers', () => {
  it('turns a theme into Bootstrap variables, button colours and readable text', () => {
    const css = siteThemeCss({ primary: '#1d4ed8', secondary: '#f97316', dark: '#0b1f3a' });
    expect(css).toContain('--amora-color-primary:#1d4ed8;--amora-color-primary-rgb:29,78,216;');
    expect(css).toContain('--amora-color-dark-rgb:11,31,58');
    expect(css).toContain('--amora-color-primary-hover-rgb:23,62,173');
    expect(css).toMatch(/\.btn-primary\{--bs-btn-color:#fff;--bs-btn-bg:#1d4ed8;/);
    // Bootstrap's own rule: white only with 4.5:1, else the stronger of white and black (the default teal gets black text).
    expect(contrastText('#1d4ed8')).toBe('#fff');
    expect(contrastText('#ffe066')).toBe('#000');
    expect(contrastText('#0f8b8d')).toBe('#000');
    // Each colour is used in its accessible shade (docs/decisions/040): white text and text on the page reach 4.5:1.
    expect(accessibleShade('#1d4ed8')).toBe('#1d4ed8');
    expect(accessibleShade('#0f8b8d')).toBe('#0d7c7d');
    expect(accessibleShade('#f97316')).toBe('#b35310');
    expect(accessibleShade('#ffffff')).toMatch(/^#[0-9a-f]{6}$/);
    expect(css).toContain('--amora-color-secondary:#b35310;');
    expect(css).toMatch(/\.btn-secondary\{--bs-btn-color:#fff;--bs-btn-bg:#b35310;/);
    expect(siteThemeCss({ primary: '#0f8b8d', secondary: '#c2187a', dark: '#2b1740' })).toMatch(/\.btn-primary\{--bs-btn-color:#fff;--bs-btn-bg:#0d7c7d;/);
    expect(css).not.toMatch(/[<>"]/);
  });

  it('has a default search and a shipped hero picture for every niche', () => {
    expect(nicheSearchDefaults(7)).toEqual({ gender: 'male', min_age: 18, max_age: 99 });
    expect(nicheSearchDefaults(2).gender).toBe('female');
    expect(nicheSearchDefaults(6)).toEqual({ gender: 'female', min_age: 35, max_age: 55 });
    expect(nicheSearchDefaults(5)).toMatchObject({ gender: 'female', min_age: 55 });
    expect(nicheSearchDefaults(1).gender).toBeUndefined();
    expect(nicheSearchDefaults(99)).toEqual(nicheSearchDefaults(1));
    for (let n = 1; n <= NICHES.length; n++) expect(existsSync(join(PUBLIC_DIR, nicheHeroImage(n)))).toBe(true);
  });

  it('puts the browser manifest\'s asset URLs on the CDN, once per build and prefix', () => {
    const build = {
      assets: {
        url: '/assets/manifest-1.js', version: '1',
        entry: { module: '/assets/entry.client-1.js', imports: ['/assets/chunk-1.js'] },
        routes: { root: { id: 'root', module: '/assets/root-1.js', imports: ['/assets/chunk-1.js'], css: ['/assets/root-1.css'], hasLoader: true } },
      },
    } as unknown as ServerBuild;
    expect(buildForCdn(build, '')).toBe(build);
    const cdn = buildForCdn(build, 'https://cdn.example/');
    expect(cdn.assets.entry).toEqual({ module: 'https://cdn.example/assets/entry.client-1.js', imports: ['https://cdn.example/assets/chunk-1.js'] });
    expect(cdn.assets.routes.root).toMatchObject({ id: 'root', module: 'https://cdn.example/assets/root-1.js', css: ['https://cdn.example/assets/root-1.css'], hasLoader: true });
    expect(buildForCdn(build, 'https://cdn.example')).toBe(cdn);
    expect(build.assets.entry.module).toBe('/assets/entry.client-1.js');
    expect(cdnUrl('https://cdn.example/', '/photos/a.webp')).toBe('https://cdn.example/photos/a.webp');
    expect(cdnUrl('', '/photos/a.webp')).toBe('/photos/a.webp');
  });
});

describe('static files for a CDN origin', () => {
  let t: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0 });
    clientDir = mkdtempSync(join(tmpdir(), 'amora-client-'));
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'assets', 'entry-abc.js'), 'export {};');
    mkdirSync(join(clientDir, 'hero'));
    writeFileSync(join(clientDir, 'hero', 'default.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(clientDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  });
  afterAll(async () => {
    rmSync(clientDir, { recursive: true, force: true });
    await t.close();
  });

  it('serves built assets to any origin (CORS and CORP) and keeps pages same-origin', async () => {
    const app = createApp({
      services: t.services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'test' }), logger: createLogger('silent'), clientDir,
      pages: async () => new Response('<!doctype html><p>page</p>', { headers: { 'Content-Type': 'text/html' } }),
    });
    const asset = await app.request('http://cdn.example/assets/entry-abc.js', { headers: { host: 'cdn.example' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('access-control-allow-origin')).toBe('*');
    expect(asset.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    // Files that keep their names: a day; the service worker: asked for every time.
    expect((await app.request('http://localhost/hero/default.svg', { headers: { host: 'localhost' } })).headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await app.request('http://localhost/sw.js', { headers: { host: 'localhost' } })).headers.get('cache-control')).toBe('no-cache');
    const page = await app.request('http://localhost/', { headers: { host: 'localhost' } });
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    expect(page.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('answers a preflight and other methods on pages without reaching the router', async () => {
    let reached = 0;
    const app = createApp({
      services: t.services, translator: await createTranslator(), env: loadEnv({ NODE_ENV: 'test' }), logger: createLogger('silent'), clientDir,
      pages: async () => { reached++; return new Response('<!doctype html><p>page</p>', { headers: { 'Content-Type': 'text/html' } }); },
    });
    const preflight = await app.request('http://localhost/members', { method: 'OPTIONS', headers: { host: 'localhost', origin: 'http://cdn.example' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('allow')).toBe('GET, HEAD, POST');
    const put = await app.request('http://localhost/profile', { method: 'PUT', headers: { host: 'localhost', 'accept-language': 'nl' } });
    expect(put.status).toBe(405);
    expect(await put.json()).toEqual({ error: { code: 'method_not_allowed', message: 'Dit soort verzoek wordt hier niet ondersteund.' } });
    expect(reached).toBe(0);
    expect((await app.request('http://localhost/', { headers: { host: 'localhost' } })).status).toBe(200);
    expect(reached).toBe(1);
  });
});
