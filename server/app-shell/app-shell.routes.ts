import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import sharp from 'sharp';
import { languageIso } from '#common/languages.ts';
import type { AppEnv } from '../http/context.ts';
import { PUBLIC_DIR } from '../paths.ts';
import { escapeHtml, nonceAttribute } from '../infra/html.ts';

const ICON_SIZES = [192, 512] as const;
type IconSize = (typeof ICON_SIZES)[number];

/**
 * Icons drawn once per size from the favicon. The maskable twin fills the whole square: launchers cut
 * their own shape out of it, so the heart stays inside the central safe zone.
 */
const icons = new Map<string, Promise<Buffer>>();
function icon(size: IconSize, maskable: boolean): Promise<Buffer> {
  const key = `${size}${maskable ? 'm' : ''}`;
  let png = icons.get(key);
  if (!png) {
    const svg = maskable
      ? readFileSync(join(PUBLIC_DIR, 'favicon.svg'), 'utf8').replace(/ rx="\d+"/, '').replace('<path ', '<path transform="translate(6.4 6.4) scale(0.8)" ')
      : readFileSync(join(PUBLIC_DIR, 'favicon.svg'), 'utf8');
    png = sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 64) }).resize(size, size).png().toBuffer();
    icons.set(key, png);
  }
  return png;
}

/**
 * The app shell: the web app manifest, the offline page and the home-screen icons (the service worker is
 * public/sw.js). The manifest is that of the site that serves the request, in the reader's language: installing
 * the site puts its own name on the home screen, whichever brand of the deployment it is.
 */
export const appShellRoutes = new Hono<AppEnv>()
  .get('/manifest.webmanifest', (c) => {
    const { site, lang, translator } = c.get('ctx');
    const manifest = {
      id: '/',
      name: site.name,
      short_name: site.name.length <= 12 ? site.name : site.name.slice(0, 12).trimEnd(),
      description: site.description || translator.t(lang, 'app.manifest_description'),
      lang: languageIso(lang),
      start_url: '/?source=app',
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      // The site's own dark theme colour (its settings, docs/decisions/038) behind the app and in the system bar.
      background_color: site.themeDark,
      theme_color: site.themeDark,
      icons: ICON_SIZES.flatMap((size) => [
        { src: `/app-icon-${size}.png`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any' },
        { src: `/app-icon-${size}-maskable.png`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'maskable' },
      ]),
    };
    c.header('Content-Type', 'application/manifest+json; charset=utf-8');
    // Varies with the language cookie and the host: short, private caching only.
    c.header('Cache-Control', 'private, max-age=3600');
    return c.body(JSON.stringify(manifest));
  })
  /**
   * The page the installed app shows when it starts without a connection (the service worker keeps it):
   * the site's name and colours, and a way to try again. Plain HTML, no scripts.
   */
  .get('/offline', (c) => {
    const { site, lang, translator, nonce } = c.get('ctx');
    const t = (key: string) => escapeHtml(translator.t(lang, key));
    c.header('Cache-Control', 'no-cache');
    // The service worker keeps one offline page: this says which language it is in (public/sw.js).
    c.header('Content-Language', lang);
    return c.html(`<!doctype html>
<html lang="${languageIso(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="${site.themeDark}"><meta name="robots" content="noindex"><title>${escapeHtml(site.name)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style${nonceAttribute(nonce)}>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:${site.themeDark};color:#fff;font-family:system-ui,sans-serif;text-align:center}
main{padding:2rem;max-width:26rem}img{width:72px;height:72px}h1{font-size:1.5rem;margin:1rem 0 .5rem}p{opacity:.85;line-height:1.5}
a{display:inline-block;margin-top:1rem;padding:.6rem 1.4rem;border-radius:2rem;background:${site.themeSecondary};color:#fff;text-decoration:none;font-weight:600}</style></head>
<body><main data-testid="offline-page"><img src="/favicon.svg" alt=""><h1>${t('app.offline_title')}</h1><p>${t('app.offline_text')}</p><a href="/">${t('app.offline_retry')}</a></main></body></html>`);
  })
  .on('GET', ICON_SIZES.flatMap((size) => [`/app-icon-${size}.png`, `/app-icon-${size}-maskable.png`]), async (c) => {
    // One route per icon, no pattern: a pattern with groups would put the whole app on Hono's slower trie router.
    const [, size, maskable] = /^\/app-icon-(\d+)(-maskable)?\.png$/.exec(c.req.path)!;
    const png = await icon(Number(size) as IconSize, Boolean(maskable));
    return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=86400' });
  });
