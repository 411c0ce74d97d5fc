import { expect, test } from './fixtures.ts';
import { asNewVisitor, demoMembers, signUpByApi } from './account-helpers.ts';

/**
 * A page that runs at load shows its first screen before its scripts start (docs/decisions/045): the module
 * preloads and the start-up script wait, inert, until the page has been painted with its main photos.
 */
test.describe('the first screen comes before the scripts', () => {
  // The site's service worker would answer the script requests that these tests hold or time from its cache.
  test.use({ serviceWorkers: 'block' });

  test('a member profile requests no script before it is painted with its main photo, then runs', async ({ page }, info) => {
    const headers = await asNewVisitor(page);
    await signUpByApi(page, headers, 'first-paint', info.project.name);
    const [member] = await demoMembers(page.request);
    await page.goto(`/members/${member.id}`);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    const timing = await page.evaluate(() => {
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const photo = document.querySelector<HTMLImageElement>('[data-testid="gallery-main"]')!;
      return {
        firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        photoLoaded: resources.find((r) => r.name === photo.currentSrc)?.responseEnd,
        scripts: resources.filter((r) => /\/assets\/[^/]+\.js$/.test(new URL(r.name).pathname)).map((r) => ({ url: r.name, start: r.startTime })),
        held: document.querySelectorAll('link[data-held-preload]').length,
      };
    });
    expect(timing.firstPaint).toBeGreaterThan(0);
    expect(timing.photoLoaded).toBeGreaterThan(0);
    expect(timing.scripts.length).toBeGreaterThan(3);
    for (const script of timing.scripts) {
      expect(script.start, `${script.url} after the first paint`).toBeGreaterThanOrEqual(timing.firstPaint);
      expect(script.start, `${script.url} after the main photo`).toBeGreaterThanOrEqual(timing.photoLoaded!);
    }
    // The preloads were restored when the page started (all fetched at once): none is left inert.
    expect(timing.held).toBe(0);
  });

  test('what a member typed before the page ran is what the page works with once it runs', async ({ page }, info) => {
    const headers = await asNewVisitor(page);
    await signUpByApi(page, headers, 'typed-early', info.project.name);
    await page.goto('/pages/terms');
    // The next page's scripts are kept waiting until the member has typed (a link followed, not page.goto, which
    // waits for the page to run).
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => { arrive = resolve; });
    await page.route('**/assets/*.js', async (route) => {
      await arrived;
      await route.continue();
    });
    await page.evaluate(() => location.assign('/notifications'));
    await page.getByTestId('word-filter-input').fill('Whatsapp');
    expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull();
    arrive();
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    // The button that waits for a word (disabled while the page's state is empty) takes the typed one.
    await expect(page.getByTestId('word-filter-input')).toHaveValue('Whatsapp');
    await expect(page.getByTestId('word-filter-add')).toBeEnabled();
    await page.getByTestId('word-filter-add').click();
    await expect(page.getByTestId('word-filter-word')).toHaveText(['whatsapp×']);
    await expect(page.getByTestId('word-filter-input')).toHaveValue('');
  });
});
