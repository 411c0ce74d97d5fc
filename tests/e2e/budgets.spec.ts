import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { demoMembers } from './account-helpers.ts';

/**
 * Performance budgets of the production build: the JavaScript and CSS a page loads before its load event,
 * gzip-compressed (level 9, as the build's precompressed copies), per page. See docs/decisions/024-benchmarks.md.
 */
const KB = 1024;
/**
 * 25 KB until the site's colours left the document for a stylesheet of their own, /site.css (about 0.6 KB, counted
 * here now), and the map lander placed its pins by class (docs/decisions/052): a style attribute is refused.
 */
const CSS_BUDGET = 26 * KB;
const LANDERS = ['gallery', 'alonetonight', 'collagelanding', 'iconslanding', 'maplanding', 'socialnetwork', 'tinderswipe', 'transitionsvideolanding', 'video'];

interface Transfer { js: number; css: number; data: number; files: string[] }

const KINDS: Record<string, 'js' | 'css' | 'data'> = { script: 'js', stylesheet: 'css', fetch: 'data', xhr: 'data' };

/**
 * Opens `path` and sums the gzip sizes of the scripts and stylesheets that arrived before the visitor does anything:
 * until the load event, and for a page that runs by itself (`runs`) until it has hydrated (its scripts start right
 * after the first paint). Data fetched meanwhile (the page language's translation table, which the page awaits
 * before it hydrates) is summed apart and reported, not budgeted: it is no code, and it used to travel inside the
 * document.
 */
async function assetsBeforeInteraction(page: Page, path: string, runs: boolean): Promise<Transfer> {
  const pending: Promise<{ kind: 'js' | 'css' | 'data'; url: string; size: number }>[] = [];
  let loaded = false;
  const onResponse = (response: import('@playwright/test').Response) => {
    const kind = KINDS[response.request().resourceType()];
    if (loaded || !kind || response.status() !== 200) return;
    pending.push(response.body().then((body) => ({ kind, url: response.url(), size: gzipSync(body, { level: 9 }).length })));
  };
  page.on('response', onResponse);
  await page.goto(path, { waitUntil: 'load' });
  if (runs) await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  loaded = true;
  page.off('response', onResponse);
  const assets = await Promise.all(pending);
  const sum = (kind: 'js' | 'css' | 'data') => assets.filter((a) => a.kind === kind).reduce((n, a) => n + a.size, 0);
  return { js: sum('js'), css: sum('css'), data: sum('data'), files: assets.map((a) => `${new URL(a.url).pathname} ${(a.size / KB).toFixed(1)} KB${a.kind === 'data' ? ' (data)' : ''}`) };
}

/**
 * Budgets the build does not meet yet, each marked as an expected failure (test.fail), as `<path> js|css`; none
 * today. A budget met later turns its test red ("expected to fail, but passed"): then it leaves this list.
 */
const OVER_BUDGET = new Set<string>();
/**
 * Pages that load no script file before the visitor interacts (only the inline loader runs): React DOM and React
 * Router alone come to about 106 KB gzip, so a landing page that ran at load could not stay within 100 KB; the
 * home page and the landers hold their scripts until the visitor interacts (app/lib/hydrate-on-interaction.ts).
 */
const HELD = new Set(['/', ...LANDERS.map((l) => `/landers/${l}`)]);

const PAGES: { path: string; js: number; signedIn: boolean }[] = [
  ...['/', ...LANDERS.map((l) => `/landers/${l}`)].map((path) => ({ path, js: 100 * KB, signedIn: false })),
  ...['/members', '/members/{id}'].map((path) => ({ path, js: 150 * KB, signedIn: true })),
  ...['/chats', '/members/{id}/chat'].map((path) => ({ path, js: 180 * KB, signedIn: true })),
];

let signedIn: BrowserContext;
let memberId: number;

test.beforeAll(async ({ browser }, info) => {
  // One log-in for every signed-in page (log-ins are rate-limited per address).
  signedIn = await browser.newContext({ baseURL: info.project.use.baseURL });
  const login = await signedIn.request.post('/api/user.php', { data: { email: 'demo@example.com', password: 'amora-demo' } });
  expect(login.status()).toBe(200);
  memberId = (await demoMembers(signedIn.request))[0].id;
});

test.afterAll(async () => {
  await signedIn?.close();
});

test.beforeEach(({ page: _page }) => {
});

for (const { path, js, signedIn: member } of PAGES) {
  for (const kind of ['js', 'css'] as const) {
    const budget = kind === 'js' ? js : CSS_BUDGET;
    test(`${path}: at most ${budget / KB} KB of ${kind === 'js' ? 'JavaScript' : 'CSS'} (gzip) before interaction`, async ({ page }) => {
      test.fail(OVER_BUDGET.has(`${path} ${kind}`), 'over budget today (see OVER_BUDGET)');
      const target = member ? await signedIn.newPage() : page;
      const t = await assetsBeforeInteraction(target, path.replace('{id}', String(memberId)), !HELD.has(path));
      if (member) await target.close();
      const summary = `${path}: JS ${(t.js / KB).toFixed(1)} KB, CSS ${(t.css / KB).toFixed(1)} KB, data ${(t.data / KB).toFixed(1)} KB gzip\n  ${t.files.join('\n  ')}`;
      test.info().annotations.push({ type: 'budget', description: summary });
      if (kind === 'css' || !HELD.has(path)) expect(t[kind], summary).toBeGreaterThan(0);
      expect(t[kind], summary).toBeLessThanOrEqual(budget);
    });
  }
}

/**
 * The first paint waits for the stylesheets and nothing else: they come first in the head, before the module
 * preloads of the page's scripts, which would otherwise take the browser's six connections (HTTP/1.1) first.
 */
for (const { path, signedIn: member } of [{ path: '/', signedIn: false }, { path: '/landers/gallery', signedIn: false }, { path: '/members', signedIn: true }]) {
  test(`${path}: the stylesheets come before the scripts in the head`, async ({ request }) => {
    const response = await (member ? signedIn.request : request).get(path);
    expect(response.status()).toBe(200);
    const head = (await response.text()).split('</head>')[0];
    const stylesheet = head.search(/<link rel="stylesheet" href="[^"]+\.css#?"/);
    const firstScript = head.search(/<link rel="modulepreload"|<script/);
    expect(stylesheet, head).toBeGreaterThan(0);
    expect(firstScript, head).toBeGreaterThan(0);
    expect(stylesheet, head).toBeLessThan(firstScript);
  });
}
