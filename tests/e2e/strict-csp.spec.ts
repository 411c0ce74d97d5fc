import type { Page } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { asNewVisitor, demoMembers, signUpByApi } from './account-helpers.ts';
import { computed, expectStyled, MAIN_PRIMARY, watchPolicy, type PolicyWatch } from './page-policy.ts';
import { SECOND_SITE, sitePort } from './site-port.ts';

/**
 * The strict style policy (docs/decisions/052): style-src allows files and elements with the response's nonce, no
 * 'unsafe-inline'. Every page type renders under it at both widths without one refused style or script: the browser
 * reports each refusal as a `securitypolicyviolation` event and on the console. And the pages still look as
 * designed: the site's colours (its /site.css) and the classes that took the place of style attributes apply.
 */

/** Opens each page (any status), lets it run, checks its look and collects what the policy refused. */
async function visitAll(page: Page, watch: PolicyWatch, paths: string[], primary = MAIN_PRIMARY) {
  for (const path of paths) {
    await page.goto(path);
    if (await page.locator('html').evaluate((html) => html.dataset.hydrated === undefined && Boolean(document.querySelector('script[data-start]')))) await hydrated(page);
    await expectStyled(page, primary, path);
    await watch.check(path);
  }
}

let profileId: number;
test.beforeAll(async ({ request }) => {
  profileId = (await demoMembers(request)).find((p) => p.main_image)!.id;
});

// Every page of the app is opened under the policy by tests/e2e/a11y.spec.ts, which checks it there on the same visit;
// these tests check what only shows here: the server's own pages, the first visit's warning, drawn landers, orders.
test('the entry warning and the server\'s own pages render under the strict policy', { tag: '@phone' }, async ({ page }) => {
  const watch = await watchPolicy(page);
  // The adults-only warning the server renders for a first visit.
  await page.goto('/');
  await expect(page.getByTestId('entry-warning')).toBeVisible();
  await expectStyled(page, MAIN_PRIMARY, 'entry warning');
  await watch.check('/ (entry warning)');
  await asNewVisitor(page);
  // Narrow pages keep their column width (a class now, not a style attribute).
  await page.goto('/login');
  expect(await computed(page, 'main .container', 'max-width')).toBe('460px');
  // Pages the server writes without React: their style element carries the response's nonce.
  await page.goto('/offline');
  expect(await computed(page, 'body', 'background-color')).toBe('rgb(43, 23, 64)');
  await watch.check('/offline');
  await page.goto('/api/unsubscribe.php?u=1&c=news&s=bad');
  expect(await computed(page, 'main', 'border-radius')).toBe('8px');
  await watch.check('/api/unsubscribe.php');
  expect(watch.all()).toEqual([]);
});

test('drawn landers render under the strict policy, each member in its place', async ({ page, shot }) => {
  test.setTimeout(180_000);
  const watch = await watchPolicy(page);
  await asNewVisitor(page);
  /** The distinct places of the elements `selector` finds (its visible ones). */
  const places = (selector: string) => page.locator(selector).evaluateAll((els) => [...new Set(els.filter((el) => el.getClientRects().length)
    .map((el) => { const r = el.getBoundingClientRect(); return `${Math.round(r.left)},${Math.round(r.top)}`; }))].length);

  // The map's frame keeps the country's proportions and its pins lie apart (classes per country and per cent).
  await visitAll(page, watch, ['/landers/maplanding/nl']);
  const frame = await page.locator('figure.map-canvas').boundingBox();
  expect(frame!.width / frame!.height).toBeCloseTo(43 / 50.807, 1);
  const pins = await page.getByTestId('map-pin').count();
  expect(pins).toBeGreaterThan(2);
  expect(await places('[data-testid=map-pin]')).toBe(pins);
  await shot('strict-csp-maplanding');
  await watch.check('/landers/maplanding/nl (pins dropped)');

  // The collage's snapshots and the icons' orbit: each member has a place of its own (:nth-child rules).
  await visitAll(page, watch, ['/landers/collagelanding']);
  const snaps = await page.getByTestId('lander-profile').evaluateAll((els) => els.filter((el) => el.getClientRects().length).length);
  expect(snaps).toBeGreaterThanOrEqual(6);
  expect(await places('[data-testid=lander-profile]')).toBe(snaps);
  await shot('strict-csp-collagelanding');
  await visitAll(page, watch, ['/landers/iconslanding']);
  expect(await places('[data-testid=lander-profile]')).toBe(6);
  await shot('strict-csp-iconslanding');

  // The swipe deck at rest: the cards below the top one lie lower; dragged, the top card follows the pointer.
  await visitAll(page, watch, ['/landers/tinderswipe']);
  const cards = page.getByTestId('swipe-card');
  expect(await cards.nth(0).evaluate((el) => getComputedStyle(el).transform)).not.toBe('none');
  expect(await cards.last().evaluate((el) => getComputedStyle(el).transform)).toBe('none');
  await shot('strict-csp-tinderswipe');
  const top = (await cards.last().boundingBox())!;
  await page.mouse.move(top.x + top.width / 2, top.y + top.height / 2);
  await page.mouse.down();
  await page.mouse.move(top.x + top.width / 2 + 40, top.y + top.height / 2, { steps: 4 });
  await expect.poll(() => cards.last().evaluate((el) => getComputedStyle(el).transform)).not.toBe('none');
  await expect.poll(() => computed(page, '.swipe-like', 'opacity')).not.toBe('0');
  await page.mouse.up();
  await expect.poll(() => cards.last().evaluate((el) => getComputedStyle(el).transform)).toBe('none');
  await watch.check('/landers/tinderswipe (dragged)');
  expect(watch.all()).toEqual([]);
});

test('the sign-up steps, an order\'s pages and the spend cap render under the strict policy', { tag: '@phone' }, async ({ page, shot }, info) => {
  test.setTimeout(240_000);
  const watch = await watchPolicy(page);
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'strict-csp', info.project.name);
  // The sign-up's later steps, with their progress bar (a native <progress>, themed).
  await visitAll(page, watch, ['/complete-signup']);
  const steps = page.getByTestId('signup-flow').locator('progress');
  await expect(steps).toHaveAttribute('value', '1');
  expect(await steps.evaluate((el) => el.getBoundingClientRect().height)).toBe(6);
  await shot('strict-csp-complete-signup');

  // An open order (its test checkout page), then a paid one (its detail page), and a spend cap (its bar).
  const { packages } = (await (await page.request.get('/api/packages.php')).json()) as { packages: { id: number }[] };
  const place = async (key: string) => {
    const res = await page.request.post('/api/order.php', {
      data: { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, headers: { 'idempotency-key': `strict-csp-${key}-${Date.now()}` },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { order: { id: string; payment_id: string } }).order;
  };
  const open = await place('open');
  const paid = await place('paid');
  expect((await page.request.post('/api/test-checkout.php', { data: { id: paid.payment_id, outcome: 'paid' } })).status()).toBe(200);
  expect((await page.request.put('/api/spend-cap.php', { data: { period: 'day', credits: 20 } })).status()).toBe(200);

  // The pages of one order, which only an order opens (the rest of the members area: tests/e2e/a11y.spec.ts).
  await visitAll(page, watch, [`/credits/${open.id}`, `/test-checkout/${open.payment_id}`, `/transactions/${paid.id}`, '/transactions']);
  const cap = page.getByTestId('spend-cap-current').locator('progress');
  await expect(cap).toBeVisible();
  expect(await cap.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
  await page.getByTestId('spend-cap').scrollIntoViewIfNeeded();
  await shot('strict-csp-transactions-spend-cap');
  // The member's own words keep their line breaks (a class now).
  await page.goto(`/members/${profileId}`);
  expect(await computed(page, '[data-testid=profile-about]', 'white-space')).toBe('pre-wrap');
  expect(watch.all()).toEqual([]);
});

test('the second site renders under its own strict policy, in its colours, with its assets on the CDN', async ({ page, shot }) => {
  test.setTimeout(120_000);
  const watch = await watchPolicy(page);
  const men = `http://${SECOND_SITE.domain}:${sitePort()}`;
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
  await visitAll(page, watch, [`${men}/`, `${men}/login`, `${men}/signup`, `${men}/pages/terms`, `${men}/landers/maplanding`, `${men}/no-such-page`], SECOND_SITE.primary);
  await page.goto(`${men}/`);
  await hydrated(page);
  expect(await computed(page, '[data-testid=top-nav]', 'background-color')).toBe('rgb(11, 31, 58)');
  await shot('strict-csp-second-site');
  expect(watch.all()).toEqual([]);
});
