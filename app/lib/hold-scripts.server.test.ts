import { describe, expect, it } from 'vitest';
import { holdScripts } from './hold-scripts.server.ts';
import { HELD_SCRIPT_TYPE, holdsScripts } from './hydrate-on-interaction.ts';

const PAGE = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
  '<link rel="stylesheet" href="/assets/root-a.css#" data-precedence="default"/>',
  '<link rel="preload" as="fetch" crossorigin="anonymous" href="/i18n/en.1.json" data-translations="" data-lang="en" data-version="1"/>',
  '<link rel="modulepreload" href="/assets/entry.client-a.js" nonce="n0nce"/><link rel="modulepreload" href="/assets/chunk-b.js" nonce="n0nce"/>',
  '<title>Gallery · Amora</title></head><body><main><a href="/signup">Join — “free”</a></main>',
  '<script nonce="n0nce">window.__reactRouterContext = {};</script>',
  '<script nonce="n0nce" type="module" async="">;\nimport * as route0 from "/assets/root-a.js";\nimport("/assets/entry.client-a.js");</script>',
  '</body></html>',
].join('');

function expectHeld(html: string, atFirstPaint: boolean) {
  // The module preloads are inert (no rel) until the loader restores them.
  expect(html).not.toContain('rel="modulepreload"');
  expect(html).toContain('<link data-held-preload="" href="/assets/entry.client-a.js" nonce="n0nce"/><link data-held-preload="" href="/assets/chunk-b.js" nonce="n0nce"/>');
  expect(html).not.toContain('type="module"');
  expect(html).toContain(`<script nonce="n0nce" type="${HELD_SCRIPT_TYPE}" data-start="${atFirstPaint ? 'first-paint' : 'interaction'}">;\nimport * as route0`);
  expect(html).toContain('<link rel="preload" as="fetch" media="not all" crossorigin="anonymous" href="/i18n/en.1.json" data-translations=""');
  // The loader runs in the head, with the page's nonce, told whether to start at the first paint; the rest of the
  // page is unchanged.
  expect(html).toMatch(/<script nonce="n0nce">\(function hydrateOnInteraction\([^<]*\)\("text\/x-held-module",.*,"data-held-preload",(true|false)\)<\/script><\/head>/s);
  expect(html).toContain(`"data-held-preload",${atFirstPaint})</script>`);
  expect(html.match(/hydrateOnInteraction/g)).toHaveLength(1);
  expect(html).toContain('<link rel="stylesheet" href="/assets/root-a.css#" data-precedence="default"/>');
  expect(html).toContain('<main><a href="/signup">Join — “free”</a></main><script nonce="n0nce">window.__reactRouterContext = {};</script>');
}

describe('holding a page\'s scripts', () => {
  for (const until of ['interaction', 'first-paint'] as const) {
    it(`until ${until}: makes the module preloads and the start-up script inert and adds the loader`, () => {
      expectHeld(holdScripts(PAGE, 'n0nce', until), until === 'first-paint');
    });
  }

  it('holds them for a visitor on a page that asks for it, unless it must run at load', () => {
    const lander = [undefined, { hydrate: 'on-interaction' }, undefined, { lander: 'gallery' }];
    expect(holdsScripts(lander, { signedIn: false, runsAtLoad: false })).toBe(true);
    expect(holdsScripts(lander, { signedIn: true, runsAtLoad: false })).toBe(false);
    expect(holdsScripts(lander, { signedIn: false, runsAtLoad: true })).toBe(false);
    expect(holdsScripts([...lander.slice(0, 3), { lander: 'video', hydrate: 'at-load' }], { signedIn: false, runsAtLoad: false })).toBe(false);
    expect(holdsScripts([undefined, { lander: 'x' }], { signedIn: false, runsAtLoad: false })).toBe(false);
  });
});
