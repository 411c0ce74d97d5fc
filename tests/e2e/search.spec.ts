import { acceptEntryWarning, expect, openSearchFilters, test } from './fixtures.ts';
import { asNewVisitor, signUpByApi } from './account-helpers.ts';

/** Member search of the demo site (300 demo members and whoever signed up) as a visitor: filters, paging, clearing, similar results, "near me". */
test.describe('member search', () => {
  test.use({ geolocation: { latitude: 52.37, longitude: 4.9 }, permissions: ['geolocation'] });

  test('filters, pages, clears and shows similar results', { tag: '@phone' }, async ({ page, shot }) => {
    await page.goto('/members');
    await acceptEntryWarning(page);
    const cards = page.getByTestId('search-results').getByTestId('profile-card');
    await expect(page.getByTestId('num-results')).toHaveText(/^\d+ members found$/);
    const total = (await page.getByTestId('num-results').textContent())!;
    expect(Number(total.match(/\d+/)![0])).toBeGreaterThanOrEqual(300);

    // Gender filter with paging: pages are appended.
    await openSearchFilters(page);
    await page.locator('#search-gender').selectOption('female');
    await page.getByTestId('search-submit').click();
    await expect(page).toHaveURL(/gender=female/);
    await expect(page.getByTestId('num-results')).not.toHaveText(total);
    const femaleCount = Number((await page.getByTestId('num-results').textContent())!.match(/\d+/)![0]);
    expect(femaleCount).toBeGreaterThan(48);
    expect(femaleCount).toBeLessThan(Number(total.match(/\d+/)![0]));
    await expect(cards).toHaveCount(24);
    await page.getByTestId('load-more').click();
    await expect(cards).toHaveCount(48);
    await shot('search-01-paged');

    // Country and region: the region list follows the country.
    await openSearchFilters(page);
    await page.locator('#search-country').selectOption('DE');
    await expect(page.locator('#search-region option')).toHaveCount(17); // "All regions" and the sixteen states
    await page.locator('#search-country').selectOption('NL');
    await expect(page.locator('#search-region option')).toHaveCount(13); // and the twelve provinces
    // An age range no test member falls in (they are in their twenties and thirties): few matches whatever ran before.
    await page.locator('#search-min-age').selectOption('60');
    await page.locator('#search-max-age').selectOption('63');
    await page.getByTestId('search-submit').click();
    await expect(page).toHaveURL(/country=NL/);
    await expect(page).toHaveURL(/min_age=60&max_age=63/);
    const shown = async () => Number((await page.getByTestId('num-results').textContent())!.match(/\d+/)![0]);
    await expect.poll(shown).toBeLessThan(12);
    // Few matches: similar members under their own heading, with their own count.
    const similar = page.getByTestId('similar-results');
    await expect(similar).toBeVisible();
    await expect(similar.getByRole('heading', { name: 'Similar members' })).toBeVisible();
    await expect(page.getByTestId('similar-num-results')).toContainText(/members? found/);
    expect(await similar.getByTestId('profile-card').count()).toBeGreaterThan(0);
    // Bootstrap scrolls smoothly: jump instead, so the screenshot shows where the page comes to rest.
    await similar.getByRole('heading', { name: 'Similar members' }).evaluate((h) => window.scrollTo({ top: h.getBoundingClientRect().top + window.scrollY - 80, behavior: 'instant' }));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await shot('search-02-similar');

    // Clearing resets the filters, the results and the count.
    await openSearchFilters(page);
    await page.getByTestId('search-clear').click();
    await expect(page).toHaveURL(/\/members\?country=$/);
    await expect(page.getByTestId('num-results')).toHaveText(total);
    await expect(page.locator('#search-gender')).toHaveValue('');
    await expect(page.locator('#search-country')).toHaveValue('');
    await expect(cards).toHaveCount(24);
    await expect(page.getByTestId('similar-results')).toHaveCount(0);
  });

  test('"near me" sets country and region from the browser position', async ({ page, shot }) => {
    await page.goto('/members?country=');
    await acceptEntryWarning(page);
    const options = page.getByTestId('location-options');
    await openSearchFilters(page);
    await expect(options).toHaveAttribute('data-permission', 'granted');
    await page.getByTestId('near-me').click();
    await expect(page).toHaveURL(/country=NL/);
    await expect(page).toHaveURL(/countryregion=Noord-Holland/);
    await expect(page.locator('#search-country')).toHaveValue('NL');
    await expect(page.locator('#search-region')).toHaveValue('Noord-Holland');
    await expect(page.getByTestId('location-place')).toHaveText('Your location: Amsterdam, North Holland');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('geocode') ?? 'null'));
    expect(stored).toMatchObject({ city: 'Amsterdam', country: 'NL', countryregion: 'Noord-Holland' });
    for (const region of await page.getByTestId('search-results').getByTestId('profile-card').allTextContents()) expect(region).toBeTruthy();
    await shot('search-03-near-me');
  });
});

test.describe('member search from a CDN that names the country', () => {
  test.use({ extraHTTPHeaders: { 'x-country-code': 'DE' } });

  test('a first visit searches the visitor\'s country; clearing drops it', async ({ page }) => {
    await page.goto('/members');
    await acceptEntryWarning(page);
    await expect(page.locator('#search-country')).toHaveValue('DE');
    const cards = page.getByTestId('search-results').getByTestId('profile-card');
    await expect(cards.first()).toContainText('Germany');
    await openSearchFilters(page);
    await page.getByTestId('search-clear').click();
    await expect(page.locator('#search-country')).toHaveValue('');
  });
});

test('a member\'s first search looks for whom they said they look for; a search of their own goes on as asked', async ({ page }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'looking', info.project.name); // a woman
  const answer = async (sexuality: string) =>
    expect((await page.request.put('/api/signup-profile.php', { headers, data: { sexuality } })).status()).toBe(200);
  const gender = page.locator('#search-gender');

  await answer('hetero');
  await page.goto('/members');
  await expect(gender).toHaveValue('male');
  await expect(page.getByTestId('search-results').getByTestId('profile-card').first()).toBeVisible();
  await answer('lesbian');
  await page.goto('/members');
  await expect(gender).toHaveValue('female');
  await answer('bi');
  await page.goto('/members');
  await expect(gender).toHaveValue('');
  // Any parameters are the member's own search, whatever they answered.
  await answer('hetero');
  await page.goto('/members?gender=female');
  await expect(gender).toHaveValue('female');
});

test('the search card holds its longest labels: German, Finnish and Polish at every width', async ({ page, baseURL }) => {
  await page.goto('/members');
  await acceptEntryWarning(page);
  for (const lang of ['de', 'fi', 'pl']) {
    await page.context().addCookies([{ name: 'locale', value: lang, url: baseURL! }]);
    for (const width of [768, 992, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/members');
      const form = (await page.getByTestId('search-form').boundingBox())!;
      for (const control of [page.getByTestId('search-submit'), page.getByTestId('search-clear'), page.locator('#search-max-age')]) {
        const box = (await control.boundingBox())!;
        expect(box.x + box.width, `${lang} at ${width} px`).toBeLessThanOrEqual(form.x + form.width);
      }
    }
  }
});

test('a new search shows skeleton cards where its results will be, then the results', async ({ page, shot }) => {
  await page.goto('/members');
  await acceptEntryWarning(page);
  // The page's data arrives slowly, as on a poor connection.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  await page.route(/\/members\.data/, async (route) => {
    await held;
    await route.continue();
  });
  await openSearchFilters(page);
  await page.locator('#search-gender').selectOption('male');
  await page.getByTestId('search-submit').click();
  await expect(page.getByTestId('search-loading').getByTestId('skeleton-card')).toHaveCount(12);
  await expect(page.getByTestId('search-results')).toHaveCount(0);
  await shot('search-loading');
  release();
  await expect(page.getByTestId('search-loading')).toHaveCount(0);
  await expect(page.getByTestId('search-results').getByTestId('profile-card').first()).toBeVisible();
  await expect(page).toHaveURL(/gender=male/);
});
