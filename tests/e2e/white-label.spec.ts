import type { Page } from '@playwright/test';
import { expect, hydrated, openSearchFilters, test } from './fixtures.ts';
import { SECOND_SITE, sitePort } from './site-port.ts';

/**
 * One running server, two brands (docs/decisions/038): the demo site on localhost and a second site
 * on men.localhost with the gay niche, its own colours and logo, and its assets and photos on a CDN
 * origin (cdn.localhost, the same server under another name). No rebuild between them.
 */
const port = sitePort();
const main = `http://localhost:${port}`;
const men = `http://${SECOND_SITE.domain}:${port}`;
const cdn = SECOND_SITE.cdn(port);

test.beforeEach(async ({ page }) => {
  // Each origin has its own storage: the adults-only warning is dismissed on both.
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
});

const style = (page: Page, selector: string, property: string) =>
  page.locator(selector).first().evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

/** Whether an image on the page really loaded (from wherever its src points). */
const loaded = (page: Page, selector: string) => page.locator(selector).first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

test('each domain shows its own colours, logo, copy and picture', { tag: '@phone' }, async ({ page, shot }) => {
  await page.goto(`${main}/`);
  await expect(page.getByTestId('hero-title')).toHaveText('Meet someone new today');
  await expect(page.getByTestId('logo')).toHaveText('Amora');
  await expect(page.getByTestId('logo').locator('[data-logo=text]')).toBeVisible();
  expect(await style(page, '[data-testid=top-nav]', 'background-color')).toBe('rgb(43, 23, 64)');
  await expect(page.locator('meta[name=theme-color]')).toHaveAttribute('content', '#2b1740');
  await expect(page.getByTestId('hero-art')).toHaveAttribute('src', '/hero/default.svg');
  await expect.poll(() => loaded(page, '[data-testid=hero-art]')).toBe(true);
  await shot('white-label-01-main-home');

  await page.goto(`${men}/`);
  await expect(page.getByTestId('hero-title')).toHaveText('Men meeting men');
  await expect(page).toHaveTitle(/Men Meet|Amora/);
  const logo = page.getByTestId('logo').locator('img[data-logo=image]');
  await expect(logo).toHaveAttribute('src', `${cdn}/logos/men-meet.svg`);
  await expect(logo).toHaveAttribute('alt', 'Men Meet');
  await expect.poll(() => loaded(page, '[data-testid=logo] img')).toBe(true);
  expect(await style(page, '[data-testid=top-nav]', 'background-color')).toBe('rgb(11, 31, 58)');
  await expect(page.locator('meta[name=theme-color]')).toHaveAttribute('content', SECOND_SITE.dark);
  await expect(page.getByTestId('hero-art')).toHaveAttribute('src', `${cdn}/hero/gay.svg`);
  await expect.poll(() => loaded(page, '[data-testid=hero-art]')).toBe(true);
  // The page's scripts and styles come from the CDN origin, and they run (the home page once the visitor interacts).
  await hydrated(page);
  const assets = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/assets/')));
  expect(assets.length).toBeGreaterThan(3);
  for (const url of assets) expect(url.startsWith(`${cdn}/assets/`), url).toBe(true);
  await expect(page.locator('link[rel=stylesheet]').first()).toHaveAttribute('href', new RegExp(`^${cdn}/assets/`));
  // Public member photos come from the CDN too.
  const photo = page.getByTestId('profile-card').locator('img').first();
  await expect(photo).toHaveAttribute('src', new RegExp(`^${cdn}/photos/`));
  await expect.poll(() => loaded(page, '[data-testid=profile-card] img')).toBe(true);
  await shot('white-label-02-men-home');

  // The primary colour: the log-in button on each site.
  await page.goto(`${main}/login`);
  // The default teal in its accessible shade (#0d7c7d): white text reaches 4.5:1 on it.
  expect(await style(page, '[data-testid=login-submit]', 'background-color')).toBe('rgb(13, 124, 125)');
  expect(await style(page, '[data-testid=login-submit]', 'color')).toBe('rgb(255, 255, 255)');
  expect(await style(page, '[data-testid=forgot-password]', 'color')).toBe('rgb(13, 124, 125)');
  await page.goto(`${men}/login`);
  expect(await style(page, '[data-testid=login-submit]', 'background-color')).toBe('rgb(29, 78, 216)');
  expect(await style(page, '[data-testid=login-submit]', 'color')).toBe('rgb(255, 255, 255)');
  // The site's colours set the design tokens (docs/decisions/086); Bootstrap's theme and the rules drawn from it follow:
  // links, the unread badges' colour, the cards' shadows (tinted with the dark).
  const root = (name: string) => page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
  expect(await root('--amora-color-primary')).toBe('#1d4ed8');
  expect(await root('--bs-primary')).toBe('#1d4ed8');
  expect(await root('--amora-unread')).toBe('#b35310');
  expect(await root('--amora-shadow-3')).toMatch(/rgba\(11,\s*31,\s*58,/);
  expect(await style(page, '[data-testid=forgot-password]', 'color')).toBe('rgb(29, 78, 216)');
  await shot('white-label-03-men-login');

  // The installed app takes each site's colour.
  const manifest = () => page.evaluate(async () => (await (await fetch('/manifest.webmanifest')).json()) as { theme_color: string });
  expect((await manifest()).theme_color).toBe(SECOND_SITE.dark);
  await page.goto(`${main}/login`);
  expect((await manifest()).theme_color).toBe('#2b1740');
});

test('the niche sets the first search: everyone on the demo site, men on the gay site', async ({ page, shot }) => {
  await page.goto(`${main}/members`);
  await expect(page.locator('#search-gender')).toHaveValue('');
  const everyone = Number((await page.getByTestId('num-results').textContent())!.match(/\d+/)![0]);
  await shot('white-label-04-main-search');

  await page.goto(`${men}/members`);
  await expect(page.locator('#search-gender')).toHaveValue('male');
  const menOnly = Number((await page.getByTestId('num-results').textContent())!.match(/\d+/)![0]);
  expect(menOnly).toBeGreaterThan(0);
  expect(menOnly).toBeLessThan(everyone);
  await expect(page.getByTestId('profile-card').locator('img').first()).toHaveAttribute('src', new RegExp(`^${cdn}/photos/`));
  await shot('white-label-05-men-search');

  // A search the visitor makes is theirs: choosing "any" shows everyone on the gay site too.
  await openSearchFilters(page);
  await page.locator('#search-gender').selectOption('');
  await page.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/gender=&|gender=$|min_age=/);
  await expect(page.locator('#search-gender')).toHaveValue('');
  await expect.poll(async () => Number((await page.getByTestId('num-results').textContent())!.match(/\d+/)![0])).toBe(everyone);
});

test('the sign-up form starts from the niche: a man on the gay site, nothing assumed on the demo site', async ({ page, browser }) => {
  await page.goto(`${main}/signup`);
  await expect(page.locator('#signup-gender')).toHaveValue('');
  await page.goto(`${men}/signup`);
  await expect(page.locator('#signup-gender')).toHaveValue('male');
  // Without JavaScript too: the server renders the choice.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(`${men}/signup`);
  await expect(plain.locator('#signup-gender')).toHaveValue('male');
  await noScript.close();
});
