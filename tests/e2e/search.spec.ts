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

/** A member of their own, signed up through the API in this browser context, with a name nobody else has. */
async function signUpNamed(page: import('@playwright/test').Page, name: string, project: string) {
  const headers = await asNewVisitor(page);
  const res = await page.request.post('/api/signup.php', {
    headers,
    data: { email: `${name.toLowerCase()}.${project}.${Date.now()}@example.org`, name, password: 'first password', date_of_birth: '1990-03-03', gender: 'female', country: 'NL' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return headers;
}

const letters = () => Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

test.describe('distance between members who share a location', () => {
  test.use({ geolocation: { latitude: 52.37, longitude: 4.9 }, permissions: ['geolocation'] });

  test('two members who shared their location see how far apart they are, and the distance filter narrows the list', { tag: '@phone' }, async ({ page, browser, baseURL, shot }, info) => {
    // The other member shares Haarlem (about 18 km from Amsterdam) from a browser of her own.
    const other = await browser.newContext({ baseURL });
    const otherPage = await other.newPage();
    const otherName = `Haar${letters()}`;
    const otherHeaders = await signUpNamed(otherPage, otherName, info.project.name);
    const shared = await otherPage.request.put('/api/location.php', { headers: otherHeaders, data: { lat: 52.3874, lon: 4.6462 } });
    expect(shared.status(), await shared.text()).toBe(200);
    expect(await shared.json()).toEqual({ location: { city: 'Haarlem' } });
    await other.close();

    // This member has shared nothing yet: no distance on the cards and no distance filter.
    await signUpNamed(page, `Adam${letters()}`, info.project.name);
    const search = `/members?country=NL&min_age=18&max_age=99`;
    await page.goto(search);
    const card = page.getByTestId('search-results').getByTestId('profile-card').filter({ hasText: otherName });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('profile-card-distance')).toHaveCount(0);
    await openSearchFilters(page);
    await expect(page.locator('#search-distance')).toHaveCount(0);
    await expect(page.getByTestId('location-share-note')).toBeVisible();

    // "Near me" shares Amsterdam: now both have a place.
    await page.getByTestId('near-me').click();
    // The search moves to the member's region once the place is shared.
    await expect(page).toHaveURL(/countryregion=Noord-Holland/);
    await page.goto(search);
    await expect(card.getByTestId('profile-card-distance')).toHaveText(/^(15|20) km$/);
    const located = await page.getByTestId('search-results').getByTestId('profile-card-distance').count();
    expect(located).toBeGreaterThan(0);

    // Within 10 km: Haarlem is too far; within 25 km: there, and only members with a place are listed.
    await openSearchFilters(page);
    await expect(page.locator('#search-distance option')).toHaveText(['Any', '10 km', '25 km', '50 km', '100 km', '250 km']);
    await page.locator('#search-distance').selectOption('10km');
    await page.getByTestId('search-submit').click();
    await expect(page).toHaveURL(/distance=10km/);
    await expect(page.getByTestId('search-results').or(page.getByTestId('no-results'))).toBeVisible();
    await expect(card).toHaveCount(0);
    await openSearchFilters(page);
    await page.locator('#search-distance').selectOption('25km');
    await page.getByTestId('search-submit').click();
    await expect(page).toHaveURL(/distance=25km/);
    await expect(card).toBeVisible();
    if (info.project.name === 'mobile') await expect(page.getByTestId('search-filters-summary')).toContainText('Within 25 km');
    const cards = page.getByTestId('search-results').getByTestId('profile-card');
    await expect(cards).toHaveCount(await page.getByTestId('search-results').getByTestId('profile-card-distance').count());
    const count = Number((await page.getByTestId('num-results').textContent())!.match(/\d+/)![0]);
    expect(count).toBeLessThan(300);
    await shot('search-distance');

    // Nobody's coordinates reach the browser: the search answer carries rounded distances only.
    const answer = await page.request.get('/api/members.php?country=NL&distance=25km');
    const text = await answer.text();
    expect(answer.status()).toBe(200);
    expect(text).not.toMatch(/latitude|longitude|52\.3874|4\.6462/);

    // Stopping to share takes the distances and the filter away again.
    await openSearchFilters(page);
    await page.getByTestId('stop-sharing-location').click();
    await expect(page.locator('#search-distance')).toHaveCount(0);
    await page.goto(search);
    await expect(card.getByTestId('profile-card-distance')).toHaveCount(0);
  });
});
