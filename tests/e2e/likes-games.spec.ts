import type { Browser, Page } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { asNewVisitor, likeFrom as likeFromMember, signUpByApi } from './account-helpers.ts';

const likeFrom = (browser: Browser, profileId: number, project: string) => likeFromMember(browser, profileId, 'overlay-liker', project);

async function myId(page: Page) {
  return ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
}

test('the new-like overlay: on arrival, live, and from /likes/m/{id}; a click elsewhere closes it, the photo and button open the profile', { tag: '@phone' }, async ({ page, browser, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'overlay', info.project.name);
  const me = await myId(page);

  const first = await likeFrom(browser, me, info.project.name);
  await page.goto('/members');
  const overlay = page.getByTestId('like-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay).toHaveAttribute('data-profile-id', String(first));
  await expect(overlay.getByRole('heading')).toHaveText('New like!');
  await shot('like-overlay');
  // A click anywhere but the photo and the button closes it; it is announced once.
  await overlay.click({ position: { x: 10, y: 10 } });
  await expect(overlay).toBeHidden();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-live', 'open');
  await expect(overlay).toBeHidden();

  // A like arriving while the member is on the site opens it at once.
  const second = await likeFrom(browser, me, info.project.name);
  await expect(overlay).toHaveAttribute('data-profile-id', String(second));
  await page.keyboard.press('Escape');
  await expect(overlay).toBeHidden();

  // /likes/m/{id}: the likes page with that member's overlay; the photo reports the id (opens the profile).
  await page.goto(`/likes/m/${first}`);
  await expect(overlay).toHaveAttribute('data-profile-id', String(first));
  await expect(page.getByTestId('likes-list')).toBeVisible();
  await overlay.getByTestId('like-overlay-photo').click();
  await expect(page).toHaveURL(new RegExp(`/members/${first}$`));
  await expect(overlay).toBeHidden();
  await page.goto('/likes/m/2147483648');
  await expect(page.getByText('This page could not be found')).toBeVisible();
});

test('swipe game: pass and undo, a drag passes, four likes a day and a clear message at the fifth', { tag: '@phone' }, async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'swipe', info.project.name);
  await page.goto('/swipe-game');
  const card = page.getByTestId('swipe-card');
  await expect(card).toBeVisible();
  await expect(page.getByTestId('swipe-likes-left')).toHaveText('4 likes left today');
  await shot('swipe-game');

  const firstId = await card.getAttribute('data-profile-id');
  await page.getByTestId('swipe-pass').click();
  await expect(card).not.toHaveAttribute('data-profile-id', firstId!);
  await page.getByTestId('swipe-undo').click();
  await expect(card).toHaveAttribute('data-profile-id', firstId!);

  // Dragging the card to the left passes it.
  const box = (await card.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 160, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(card).not.toHaveAttribute('data-profile-id', firstId!);

  // Likes by button and by key.
  for (let i = 0; i < 4; i++) {
    const id = await card.getAttribute('data-profile-id');
    if (i % 2) await page.keyboard.press('ArrowRight');
    else await page.getByTestId('swipe-like').click();
    await expect(card).not.toHaveAttribute('data-profile-id', id!);
  }
  await expect(page.getByTestId('swipe-likes-left')).toHaveText('0 likes left today');
  await page.getByTestId('swipe-like').click();
  await expect(page.getByTestId('swipe-notice')).toContainText('You have used your 4 likes for today. Your next like is available in');
  await shot('swipe-limit');
  // The server holds the limit too, whatever the page says.
  const extra = await page.request.post('/api/swipe-game.php', { data: { profile_id: Number(await card.getAttribute('data-profile-id')), action: 'like' } });
  expect(extra.status()).toBe(429);
  expect(Number(extra.headers()['retry-after'])).toBeGreaterThan(0);
});

test('match finder: the questionnaire the first time, then ranked members with the reasons they were chosen', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'finder', info.project.name);
  await page.goto('/match-finder');
  await expect(page.getByTestId('match-finder-form')).toBeVisible();
  await shot('match-finder-questionnaire');
  await page.locator('#mf-gender').selectOption('male');
  await page.locator('#mf-min-age').selectOption('18');
  await page.locator('#mf-max-age').selectOption('99');
  await page.getByTestId('match-finder-submit').click();
  const results = page.getByTestId('match-finder-results');
  await expect(results).toBeVisible();
  await expect(results.getByTestId('profile-card').first()).toBeVisible();
  await expect(results.getByTestId('match-reasons').first()).toContainText('Aged 18–99, as you asked');
  await shot('match-finder-results');
  await page.getByTestId('match-finder-edit').click();
  await expect(page.locator('#mf-gender')).toHaveValue('male');
});

test('?lb logs how long a visitor stayed on the page they left; an admin reads it', async ({ page }) => {
  await asNewVisitor(page);
  const operator = { authorization: `Bearer ${process.env.E2E_STAFF_TOKEN}` };
  const visits = async () => ((await (await page.request.get('/api/page-bounce.php', { headers: operator })).json()) as { paths: { path: string; visits: number }[] })
    .paths.find((p) => p.path === '/pages/faq')?.visits ?? 0;
  const before = await visits();
  // The service worker controls the page: the beacon passes through it as the page goes.
  await page.goto('/');
  // The home page runs (and registers the worker) once the visitor interacts.
  await hydrated(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.goto('/pages/faq?lb=1');
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The beacon is armed once the page runs in the browser.
  await expect(page.locator('html')).toHaveAttribute('data-page-bounce', 'armed');
  // Leaving the page (a full navigation) sends the beacon; the browser sends it after the page is gone, where
  // the test cannot see the request, and a loaded server may take a while to record it.
  await page.goto('/pricing');
  await expect.poll(visits, { timeout: 30_000 }).toBe(before + 1);
  // Without lb the page runs without a beacon, and only the next measured visit counts.
  await page.goto('/pages/faq');
  await expect(page.locator('html')).not.toHaveAttribute('data-page-bounce', /./);
  await page.goto('/pages/faq?lb=1');
  await expect(page.locator('html')).toHaveAttribute('data-page-bounce', 'armed');
  await page.goto('/pricing');
  await expect.poll(visits, { timeout: 30_000 }).toBeGreaterThanOrEqual(before + 2);
  expect(await visits()).toBe(before + 2);
});

test('the likes tabs: received (new first, flag cleared on opening the profile), given and matches', async ({ page, browser, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'likes-tabs', info.project.name);
  const me = await myId(page);
  const fan = await likeFrom(browser, me, info.project.name);
  const mutual = await likeFrom(browser, me, info.project.name);
  expect((await page.request.post('/api/like.php', { data: { profile_id: mutual } })).status()).toBe(200);

  await page.goto('/likes');
  // Arriving in the members area announces the newest new like (the automatic like call): seen and closed first.
  const overlay = page.getByTestId('like-overlay');
  await expect(overlay).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(overlay).toBeHidden();
  const list = page.getByTestId('likes-list');
  await expect(list.getByTestId('profile-card')).toHaveCount(2);
  await expect(list.locator('.badge', { hasText: 'New' })).toHaveCount(2);
  await shot('likes-received');
  await page.goto(`/members/${fan}`);
  // The fan has just been active: their profile says they are online.
  await expect(page.getByTestId('online')).toHaveText('Online now');
  await page.goto('/likes');
  await expect(list.locator('.badge', { hasText: 'New' })).toHaveCount(1);
  await page.goto('/likes/given');
  await expect(list.getByTestId('profile-card')).toHaveCount(1);
  await expect(list.locator(`a[href="/members/${mutual}"]`)).toBeVisible();
  await page.goto('/likes/matches');
  await expect(list.locator(`a[href="/members/${mutual}"]`)).toBeVisible();
  await expect(list.locator(`a[href="/members/${fan}"]`)).toHaveCount(0);
});

test('empty lists explain themselves and lead on: likes, matches, chats and a search that finds nobody', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'empty', info.project.name);
  const empty = page.getByTestId('likes-empty');
  await page.goto('/likes');
  await expect(empty).toContainText('Nobody has liked you yet.');
  await expect(empty.getByRole('link', { name: 'Add a photo' })).toHaveAttribute('href', '/profile');
  await shot('likes-empty');
  await page.goto('/likes/given');
  await expect(empty.getByRole('link', { name: 'Search members' })).toHaveAttribute('href', '/members');
  await page.goto('/likes/matches');
  await empty.getByRole('link', { name: 'Start swiping' }).click();
  await expect(page).toHaveURL(/\/swipe-game$/);

  await page.goto('/chats');
  await expect(page.getByTestId('no-chats').first()).toContainText('No conversations yet.');
  await shot('chats-empty');

  await page.goto('/members?country=NL&min_age=98&max_age=99&gender=male');
  const none = page.getByTestId('no-results');
  await expect(none).toContainText('No members match your search.');
  await none.getByRole('link', { name: 'Clear' }).click();
  await expect(page.getByTestId('search-results').getByTestId('profile-card').first()).toBeVisible();
});
