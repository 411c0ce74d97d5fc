import { HELD_SCRIPT_TYPE } from '../../app/lib/hydrate-on-interaction.ts';
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

export const SCREENSHOT_DIR = 'tests/e2e/screenshots';

export const test = base.extend<{ shot: (name: string) => Promise<void>; timeBonusModal: boolean; a11yOnShot: boolean }>({
  /** Every screenshot also checks its page with axe (`expectAccessible`); a test about a half-built state can turn it off. */
  a11yOnShot: [true, { option: true }],
  /**
   * The time-bonus modal opens 40 s into the members area for every new member at 0 credits; a slow
   * test would have it cover the page it clicks on. Tests start with it dismissed (as after a first
   * close), except those about it: `test.use({ timeBonusModal: true })`.
   */
  timeBonusModal: [false, { option: true }],
  // Screenshots of the screens a person sees, per viewport (desktop 1280 px, mobile 375 px).
  shot: async ({ page, a11yOnShot }, use, info) => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await use(async (name) => {
      await animationsSettled(page);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/${info.project.name}-${name}.png`, fullPage: false });
      if (a11yOnShot) await expectAccessible(page, name);
    });
  },
  page: async ({ page, timeBonusModal }, use) => {
    if (!timeBonusModal) {
      await page.addInitScript(() => {
        try {
          localStorage.setItem('hide-time-bonus-modal', String(Math.floor(Date.now() / 1000)));
        } catch {
          // about:blank has no storage
        }
      });
    }
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // A refused payment, message, form or upload answers 400/401/402/409/413/415 on purpose, a
      // throttled log-in 429, a wrong or expired SMS code 422/410; the browser logs those requests. Chromium refuses
      // the Push API in its private browser contexts and says so on the console. A test that takes the browser
      // offline sees its requests fail.
      if (m.type() === 'error' && !/status of (400|401|402|404|409|410|413|415|422|429)|Push API in incognito|ERR_INTERNET_DISCONNECTED/.test(m.text())) errors.push(m.text());
    });
    // A click before the page has hydrated reaches no handler (the first screen comes before the scripts run):
    // every navigation to a page that runs at load waits until its controls respond. (Landing pages wait for an
    // interaction: `hydrated()` gives them one.)
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      const runsAtLoad = () => Boolean(document.querySelector('script[type=module], script[data-start="first-paint"]'));
      if (response?.ok() && (response.headers()['content-type'] ?? '').startsWith('text/html') && (await page.evaluate(runsAtLoad))) {
        await hydrated(page);
      }
      return response;
    };
    await use(page);
    expect(errors, 'browser errors').toEqual([]);
  },
});

export { expect };

/** Visitors see the adults-only warning once. */
export async function acceptEntryWarning(page: Page) {
  // A click while React is still hydrating the page can be lost; the warning's own button is no exception.
  await hydrated(page);
  const accept = page.getByTestId('entry-warning-accept');
  await accept.click();
  await expect(accept).toBeHidden();
}

/** Without JavaScript (or before the page runs) "Enter" posts, and the page comes back without the entry warning. */
export async function enterPastWarning(page: Page) {
  await page.getByTestId('entry-warning-accept').click();
  await expect(page.getByTestId('entry-warning')).toHaveCount(0);
}

/** Opens a navigation item, expanding the collapsed menu on small screens. */
export async function openNav(page: Page, testId: string) {
  await hydrated(page);
  const toggle = page.locator('.navbar-toggler');
  if (await toggle.isVisible()) {
    await toggle.click();
    await expect(page.locator('#main-nav')).toHaveClass(/show/);
  }
  await page.getByTestId(testId).click();
}

/** Waits until the page runs in the browser: a click before that would reach no handler. */
export async function hydrated(page: Page) {
  // Landing pages and `/` hold their scripts until the visitor interacts (app/lib/hydrate-on-interaction.ts): a pointer
  // starts them. The held script comes at the end of the document, so a page still arriving is waited for first.
  await page.waitForFunction(() => document.readyState !== 'loading');
  await page.evaluate((type) => { if (document.querySelector(`script[type="${type}"]`)) window.dispatchEvent(new Event('pointerdown')); }, HELD_SCRIPT_TYPE);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

/** The page's first stop of the keyboard is the skip link (in sight when focused), and it moves the focus to `main#main`. */
export async function expectSkipLinkFirst(page: Page) {
  await hydrated(page);
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-link');
  await expect(skip).toBeFocused();
  await expect(skip).toHaveText('Skip to content');
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
}

/** Opens the member search's filters, which fold away behind a button on phones. */
export async function openSearchFilters(page: Page) {
  const toggle = page.getByTestId('search-filters-toggle');
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(page.getByTestId('search-form')).toBeVisible();
}

/**
 * Waits until every animation that ends has ended (a dialog fading in, pins dropping onto a map): what a
 * screenshot or a colour measurement sees is the final state. Endless ones (skeletons, spinners) do not count.
 */
export async function animationsSettled(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
}

/** The WCAG 2.x A and AA rules of axe (docs/decisions/040). */
export const A11Y_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Checks the page as it is now with axe-core against WCAG 2.2 A/AA and fails with a readable list of
 * the violations: rule, impact, what is wrong, and the elements (selector and the failure summary).
 */
export async function expectAccessible(page: Page, what = page.url()) {
  const report = await accessibilityViolations(page);
  expect(report, `accessibility violations on ${what}:\n${report.join('\n')}`).toEqual([]);
}

/** The page's axe violations (WCAG 2.2 A/AA), one readable entry per rule; empty when there are none. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // No preload: axe would fetch the page's stylesheets again (for one orientation rule), which a CDN's
  // stylesheet under the page's Content-Security-Policy (connect-src 'self') refuses and logs.
  // Colours are measured as they end up: a dialog still fading in is half transparent.
  await animationsSettled(page);
  // The sticky top navigation lies over whatever the test scrolled under it, so a field half under it would
  // count as an obscured touch target at one scroll position and not at another. It is checked where it
  // stands in the page's flow (same layout, it just does not stick) so that the verdict does not depend on
  // how far the test scrolled.
  // (Through the CSS object model: the page's style policy refuses an added style element.)
  const stick = (sticky: boolean) => page.evaluate((on) => {
    const nav = document.querySelector<HTMLElement>('[data-testid="top-nav"]');
    if (on) nav?.style.removeProperty('position');
    else nav?.style.setProperty('position', 'relative', 'important');
  }, sticky);
  await stick(false);
  const { violations } = await new AxeBuilder({ page }).options({ preload: false }).withTags(A11Y_TAGS).analyze()
    .finally(() => stick(true).catch(() => undefined));
  return violations.map((v) => [
    `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${v.helpUrl}`,
    ...v.nodes.slice(0, 8).map((n) => `    ${n.target.join(' ')}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`),
    ...(v.nodes.length > 8 ? [`    … and ${v.nodes.length - 8} more`] : []),
  ].join('\n'));
}
