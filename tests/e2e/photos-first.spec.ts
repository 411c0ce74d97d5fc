import type { APIRequestContext, Browser, Locator } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures.ts';
import { asNewVisitor, paidOrder, signUpByApi } from './account-helpers.ts';

/**
 * Photos first (issue 29, item 24): cards and the swipe deck are the photo with the words over it, the profile page
 * opens on a gallery of the photos the viewer may see with like/message/gift always at hand, and a member puts their
 * photos in the order they like on /profile.
 */

const STAFF = { authorization: `Bearer ${process.env.E2E_STAFF_TOKEN}` };
const letters = () => Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
const jpeg = (color: string) => sharp({ create: { width: 500, height: 600, channels: 3, background: color } }).jpeg().toBuffer();

async function upload(request: APIRequestContext, color: string): Promise<number> {
  const res = await request.post('/api/photos.php', { multipart: { photo: { name: 'p.jpg', mimeType: 'image/jpeg', buffer: await jpeg(color) } } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { photo: { id: number } }).photo.id;
}

async function moderate(request: APIRequestContext, id: number, action: 'approve' | 'reject') {
  const res = await request.post('/api/moderation.php', { data: { id, action }, headers: STAFF });
  expect(res.status(), await res.text()).toBe(200);
}

/** A man in a browser of his own, with approved photos in `colors`; `place`: the town he shares; `premium`: room for more than 3 photos. */
async function man(browser: Browser, baseURL: string | undefined, project: string, colors: string[], { place, premium = false }: { place?: { lat: number; lon: number }; premium?: boolean } = {}) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const headers = await asNewVisitor(page);
  const name = `Ruben${letters()}`;
  const res = await page.request.post('/api/signup.php', {
    headers, data: { email: `${name.toLowerCase()}.${project}.${Date.now()}@example.org`, name, password: 'first password', date_of_birth: '1988-04-04', gender: 'male', country: 'NL' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { user: { id: number } }).user.id;
  if (premium) await paidOrder(page, `${name}-${Date.now()}`);
  const photos: number[] = [];
  for (const color of colors) {
    const photo = await upload(page.request, color);
    await moderate(page.request, photo, 'approve');
    photos.push(photo);
  }
  if (place) expect((await page.request.put('/api/location.php', { headers, data: place })).status()).toBe(200);
  return { page, id, name, photos, headers, close: () => context.close() };
}

/** `inner` lies wholly inside `outer`'s box. */
async function expectInside(inner: Locator, outer: Locator) {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  expect(a.x).toBeGreaterThanOrEqual(b.x - 0.5);
  expect(a.y).toBeGreaterThanOrEqual(b.y - 0.5);
  expect(a.x + a.width).toBeLessThanOrEqual(b.x + b.width + 0.5);
  expect(a.y + a.height).toBeLessThanOrEqual(b.y + b.height + 0.5);
}

const HAARLEM = { lat: 52.3874, lon: 4.6462 };
const AMSTERDAM = { lat: 52.3731, lon: 4.8922 };

test('search cards and the swipe deck: the photo fills the card, with name, age, distance and online state over it', { tag: '@phone' }, async ({ page, browser, baseURL, shot }, info) => {
  const other = await man(browser, baseURL, info.project.name, ['#6a4c93'], { place: HAARLEM });
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'photos-first-cards', info.project.name);
  expect((await page.request.put('/api/location.php', { headers, data: AMSTERDAM })).status()).toBe(200);

  await page.goto('/members?country=NL&min_age=18&max_age=99');
  const card = page.getByTestId('search-results').getByTestId('profile-card').filter({ hasText: other.name });
  await expect(card).toBeVisible();
  const photo = card.locator('img');
  await expect(photo).toHaveCount(1);
  // The photo is the card: the same box, in the card's 5:6.
  const cardBox = (await card.boundingBox())!;
  const photoBox = (await photo.boundingBox())!;
  expect(Math.abs(photoBox.width - cardBox.width)).toBeLessThan(1);
  expect(Math.abs(photoBox.height - cardBox.height)).toBeLessThan(1);
  expect(cardBox.height / cardBox.width).toBeCloseTo(6 / 5, 1);
  // Name and age, distance and the online state lie over the photo.
  await expect(card.getByTestId('profile-card-distance')).toHaveText(/^(15|20) km$/);
  await expect(card.getByTestId('online')).toHaveCount(1);
  for (const part of [card.getByText(`${other.name}, `), card.getByTestId('profile-card-distance'), card.getByTestId('profile-card-country'), card.locator('.online-dot')]) {
    await expectInside(part, photo);
  }
  await shot('photos-first-cards');

  // The deck: the same card, with the distance.
  const deck = (await (await page.request.get('/api/swipe-game.php')).json()) as { profiles: { id: number; distance?: { value: number; unit: string } }[] };
  expect(deck.profiles.find((p) => p.id === other.id)?.distance).toMatchObject({ unit: 'km' });
  await page.goto('/swipe-game');
  const swipeCard = page.getByTestId('swipe-card');
  for (let i = 0; i < 12 && (await swipeCard.getAttribute('data-profile-id')) !== String(other.id); i++) {
    const id = await swipeCard.getAttribute('data-profile-id');
    await page.getByTestId('swipe-pass').click();
    await expect(swipeCard).not.toHaveAttribute('data-profile-id', id!);
  }
  await expect(swipeCard).toHaveAttribute('data-profile-id', String(other.id));
  await expect(swipeCard.getByTestId('profile-card-distance')).toHaveText(/^(15|20) km$/);
  await expect(swipeCard.getByTestId('online')).toHaveCount(1);
  await expectInside(swipeCard.getByTestId('profile-card-distance'), swipeCard.locator('img'));
  // The buttons stay above a phone's tab bar.
  const tabBar = page.getByTestId('tab-bar');
  const like = (await page.getByTestId('swipe-like').boundingBox())!;
  if (await tabBar.isVisible()) expect(like.y + like.height).toBeLessThanOrEqual((await tabBar.boundingBox())!.y);
  else expect(like.y + like.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  await shot('photos-first-deck');
  await other.close();
});

test('the profile opens on a gallery of the photos the viewer may see: by button, key and swipe; the actions stay at hand', { tag: '@phone' }, async ({ page, browser, baseURL, shot }, info) => {
  test.slow();
  const owner = await man(browser, baseURL, info.project.name, ['#b5485d', '#3d7ea6', '#e0a526'], { premium: true });
  const rejected = await upload(owner.page.request, '#222222');
  await moderate(owner.page.request, rejected, 'reject');
  await owner.close();

  // A premium member sees every photo of his but the rejected one (free members see the main photo only: profile.spec.ts).
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'photos-first-gallery', info.project.name);
  await paidOrder(page, `gallery-${info.project.name}-${Date.now()}`);
  await page.goto(`/members/${owner.id}`);
  const gallery = page.getByRole('region', { name: `Photos of ${owner.name}` });
  await expect(gallery).toBeVisible();
  const slides = gallery.getByTestId('gallery-photo');
  await expect(slides).toHaveCount(3);
  expect(await slides.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-photo-id'))))).toEqual(owner.photos);
  await expect(gallery.locator(`[data-photo-id="${rejected}"]`)).toHaveCount(0);
  await expect(slides.nth(1).locator('img')).toHaveAttribute('loading', 'lazy');
  await expect(slides.nth(0).locator('img')).toHaveAttribute('loading', 'eager');

  const position = gallery.getByTestId('gallery-position');
  const announced = gallery.getByTestId('gallery-announcement');
  const frame = gallery.locator('.profile-gallery-frame');
  /** The photo in view is the `n`th (from 0), and the page says so. */
  const showing = async (n: number) => {
    await expect(position).toHaveText(`${n + 1} / 3`);
    await expect(gallery).toHaveAttribute('data-index', String(n));
    await expect.poll(async () => Math.round((await slides.nth(n).boundingBox())!.x - (await frame.boundingBox())!.x)).toBe(0);
  };
  await showing(0);
  await expect(gallery.getByTestId('gallery-previous')).toBeDisabled();
  await gallery.getByRole('button', { name: 'Next photo' }).click();
  await showing(1);
  await expect(announced).toHaveText('Photo 2 of 3');
  await gallery.focus();
  await page.keyboard.press('ArrowRight');
  await showing(2);
  await expect(gallery.getByTestId('gallery-next')).toBeDisabled();
  await page.keyboard.press('ArrowLeft');
  await showing(1);

  // A swipe (or a mouse drag) to the left shows the next photo, to the right the previous one.
  const drag = async (dx: number) => {
    const box = (await frame.boundingBox())!;
    const y = box.y + box.height * 0.7;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + dx, y, { steps: 6 });
    await page.mouse.up();
  };
  await drag(-120);
  await showing(2);
  await drag(120);
  await drag(120);
  await showing(0);
  await shot('photos-first-gallery');

  // Like, message and gift: on a phone a bar above the tab bar, there after scrolling and covering nothing.
  const actions = page.getByTestId('profile-actions');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(actions).toBeInViewport();
  const bar = (await actions.boundingBox())!;
  if (info.project.name === 'mobile') {
    const tabBar = (await page.getByTestId('tab-bar').boundingBox())!;
    expect(bar.y + bar.height).toBeLessThanOrEqual(tabBar.y);
    // Scrolled to the end, the page's content and its footer are above the bar: it covers nothing.
    const report = (await page.getByTestId('report-profile').boundingBox())!;
    expect(report.y + report.height).toBeLessThanOrEqual(bar.y);
    const footer = (await page.getByTestId('footer').boundingBox())!;
    expect(footer.y + footer.height).toBeLessThanOrEqual(bar.y + 1);
    await shot('photos-first-action-bar');
  } else {
    // Beside the gallery on a wide screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect((await actions.boundingBox())!.x).toBeGreaterThan((await frame.boundingBox())!.x + (await frame.boundingBox())!.width);
  }
  await actions.getByTestId('like-button').click();
  await expect(actions.getByTestId('like-button')).toHaveText('Unlike');
  await expect(actions).toBeInViewport();
  await actions.getByTestId('message-button').click();
  await expect(page).toHaveURL(new RegExp(`/members/${owner.id}/chat$`));
});

test('on /profile the member puts their photos in order: the first is the main photo, on the server too', { tag: '@phone' }, async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'photos-first-order', info.project.name);
  const ids: number[] = [];
  for (const color of ['#c0392b', '#27ae60', '#2980b9']) {
    const id = await upload(page.request, color);
    await moderate(page.request, id, 'approve');
    ids.push(id);
  }
  const order = async () => ((await (await page.request.get('/api/photos.php')).json()) as { photos: { id: number; is_main: boolean }[] }).photos;
  expect((await order()).map((p) => p.id)).toEqual(ids);

  await page.goto('/profile');
  const list = page.getByTestId('photo-manager').getByTestId('photo-order');
  const items = list.getByTestId('photo-order-item');
  await expect(items).toHaveCount(3);
  await expect(items.first()).toHaveAttribute('data-main', 'true');
  // The third photo, moved forward twice, becomes the main one.
  await items.nth(2).getByTestId('photo-move-earlier').click();
  await expect(page.getByTestId('photo-order-announcement')).toHaveText('Photo moved to place 2 of 3.');
  await expect(items.nth(1)).toHaveAttribute('data-photo-id', String(ids[2]));
  await items.nth(1).getByTestId('photo-move-earlier').click();
  await expect(page.getByTestId('photo-order-announcement')).toHaveText('Photo moved to place 1 of 3.');
  await expect(items.first()).toHaveAttribute('data-photo-id', String(ids[2]));
  await expect(items.first()).toHaveAttribute('data-main', 'true');
  await shot('photos-first-order');
  const saved = await order();
  expect(saved.map((p) => p.id)).toEqual([ids[2], ids[0], ids[1]]);
  expect(saved[0].is_main).toBe(true);
  // Others see it as the main photo.
  const me = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
  const seen = (await (await page.request.get(`/api/profile.php?id=${me}`)).json()) as { profile: { photos: { id: number; is_main: boolean }[] } };
  expect(seen.profile.photos[0]).toMatchObject({ id: ids[2], is_main: true });

  // A refused order puts the photos back as they were and says why.
  await page.route('**/api/photo-order.php', (route) => route.fulfill({
    status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'conflict', message: 'Your photos changed meanwhile.' } }),
  }));
  await items.nth(0).getByTestId('photo-move-later').click();
  await expect(page.getByTestId('photo-error')).toContainText('Your photos changed meanwhile.');
  await expect(items.first()).toHaveAttribute('data-photo-id', String(ids[2]));
});
