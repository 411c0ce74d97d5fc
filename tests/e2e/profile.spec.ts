import type { APIRequestContext, Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { acceptEntryWarning, expect, hydrated, test } from './fixtures.ts';

/** The staff admin's API token (tests/e2e/global-setup.ts). */
const STAFF_TOKEN = process.env.E2E_STAFF_TOKEN;
let counter = 0;

/** A new member, signed in on this page's browser context. */
async function signUp(request: APIRequestContext, name: string, project: string) {
  const email = `profile.${project}.${Date.now()}.${++counter}@example.org`;
  // Each member signs up from an address of their own, as real members do (the signup rate limit is per address).
  const res = await request.post('/api/signup.php', {
    data: { email, name, password: 'profile-password', date_of_birth: '1991-03-03', gender: 'female', country: 'NL' },
    headers: { 'x-forwarded-for': `10.${project === 'mobile' ? 2 : 1}.${Math.floor(counter / 250)}.${(counter % 250) + 1}` },
  });
  expect(res.status()).toBe(201);
  return { email, id: (await res.json()).user.id as number };
}

/** A phone-like JPEG: EXIF with camera make and a GPS position. */
const phoneJpeg = (color = '#c33') => sharp({ create: { width: 600, height: 800, channels: 3, background: color } })
  .withExifMerge({ IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 12/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 0/1' } })
  .jpeg().toBuffer();
const hasGpsTag = (b: Buffer) => b.includes(Buffer.from([0x25, 0x88])) || b.includes(Buffer.from([0x88, 0x25]));

async function uploadViaApi(request: APIRequestContext, color: string) {
  const res = await request.post('/api/photos.php', { multipart: { photo: { name: 'p.jpg', mimeType: 'image/jpeg', buffer: await phoneJpeg(color) } } });
  expect(res.status()).toBe(201);
  return (await res.json()).photo as { id: number };
}

async function approve(request: APIRequestContext, id: number) {
  const res = await request.post('/api/moderation.php', { data: { id, action: 'approve' }, headers: { authorization: `Bearer ${STAFF_TOKEN}` } });
  expect(res.status()).toBe(200);
}

async function otherPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

test('edit every profile attribute and see the visible ones on the public profile', { tag: '@phone' }, async ({ page, shot }, info) => {
  await signUp(page.request, 'Editor', info.project.name);
  await page.goto('/profile');
  await expect(page.getByTestId('profile-form')).toBeVisible();
  await hydrated(page);
  await page.locator('#profile-name').fill('@editor');
  await page.getByTestId('profile-save').click();
  await expect(page.getByText('Your name cannot start with @.')).toBeVisible();
  await shot('profile-01-error');

  await page.locator('#profile-name').fill('Eva');
  await page.locator('#profile-sexuality').selectOption('bi');
  await page.locator('#profile-hair_color').selectOption('red');
  await page.locator('#profile-eye_color').selectOption('green');
  await page.locator('#profile-body_type').selectOption('slim');
  await page.locator('#profile-relationship_status').selectOption('living_together');
  await page.locator('#profile-tattoos').selectOption('some');
  await page.locator('#profile-signup_reason').selectOption('flirt');
  await page.locator('#profile-region').selectOption('Utrecht');
  await page.locator('label[for="interest-music"]').click();
  await page.locator('label[for="interest-wine"]').click();
  await page.locator('#profile-about').fill('I love music and a good glass of wine.');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-status')).toHaveText('Your profile has been saved.');
  await shot('profile-02-saved');

  // Saved on the server: a reload shows the same values.
  await page.reload();
  await expect(page.locator('#profile-sexuality')).toHaveValue('bi');
  await expect(page.locator('#interest-wine')).toBeChecked();
  // The banners that appear once the page runs move the link: click after that.
  await hydrated(page);

  await page.getByTestId('view-public').click();
  await expect(page.getByTestId('profile-name')).toContainText('Eva');
  const attributes = page.getByTestId('profile-attributes');
  await expect(attributes).toContainText('Bisexual');
  await expect(attributes).toContainText('Living together');
  await expect(page.getByTestId('profile-interests')).toContainText('Wine');
  await expect(page.getByTestId('profile-about')).toHaveText('I love music and a good glass of wine.');
  await shot('profile-03-public');
});

test('upload photos with progress; metadata and GPS are gone; the limit alert appears at 3', { tag: '@phone' }, async ({ page, shot }, info) => {
  await signUp(page.request, 'Uploader', info.project.name);
  await page.goto('/profile');
  const input = page.locator('#photo-file');
  await input.setInputFiles({ name: 'phone.jpg', mimeType: 'image/jpeg', buffer: await phoneJpeg() });
  await page.getByTestId('photo-upload').click();
  await expect(page.getByTestId('photo-notice')).toBeVisible();
  await expect(page.getByTestId('photo-manager')).toHaveAttribute('data-last-progress', '100');
  const photo = page.getByTestId('own-photo');
  await expect(photo).toHaveCount(1);
  // The site moderates after publication (the default): the photo shows at once and is reviewed later.
  await expect(photo.first()).toHaveAttribute('data-status', 'active');
  await expect(photo.first()).toHaveAttribute('data-main', 'true');
  await expect(photo.first()).toContainText('Visible');
  await expect(page.getByTestId('photo-notice')).toHaveText('Your photo has been uploaded and other members can see it.');
  await shot('profile-04-uploaded');

  // The stored photo carries no EXIF and no GPS position.
  const src = await photo.first().locator('img').getAttribute('src');
  const original = src!.replace('_t.webp', '.webp');
  const file = await page.request.get(original);
  expect(file.status()).toBe(200);
  const bytes = await file.body();
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe('webp');
  expect(meta.exif).toBeUndefined();
  expect(hasGpsTag(bytes)).toBe(false);
  // Others load it too: it is the member's public main photo.
  const visitor = await page.context().browser()!.newContext({ baseURL: info.project.use.baseURL });
  expect((await visitor.request.get(original)).status()).toBe(200);
  await visitor.close();

  // A text file named .jpg is refused with a clear message.
  await input.setInputFiles({ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('just some text, not a photo') });
  await page.getByTestId('photo-upload').click();
  await expect(page.getByTestId('photo-error')).toContainText('This file is not a photo.');
  await shot('profile-05-not-a-photo');

  for (const color of ['#3a3', '#33a']) {
    await input.setInputFiles({ name: 'more.jpg', mimeType: 'image/jpeg', buffer: await phoneJpeg(color) });
    await page.getByTestId('photo-upload').click();
    await expect(page.getByTestId('photo-notice')).toBeVisible();
  }
  await expect(page.getByTestId('own-photo')).toHaveCount(3);
  await expect(page.getByTestId('photo-limit-alert')).toContainText('You have reached your photo limit (3 photos).');
  await expect(page.getByTestId('photo-upload-form')).toHaveCount(0);
  await shot('profile-06-limit');
});

test('more photos need an account, then premium', async ({ page, shot, browser }, info) => {
  // Three members, two uploads and a purchase: a long journey.
  test.slow();
  const owner = await otherPage(browser, info.project.use.baseURL);
  const ownerInfo = await signUp(owner.request, 'Gallery', info.project.name);
  for (const color of ['#a33', '#3a3']) await approve(owner.request, (await uploadViaApi(owner.request, color)).id);
  await owner.context().close();

  // A visitor sees the main photo and a locked one that asks to log in.
  const visitor = await otherPage(browser, info.project.use.baseURL);
  await visitor.goto(`/members/${ownerInfo.id}`);
  await expect(visitor.getByTestId('gallery-main')).toBeVisible();
  await expect(visitor.getByTestId('gallery-locked')).toHaveAttribute('data-locked', 'login');
  await visitor.context().close();

  await signUp(page.request, 'Viewer', info.project.name);
  await page.goto(`/members/${ownerInfo.id}`);
  await expect(page.getByTestId('gallery-main')).toBeVisible();
  await expect(page.getByTestId('gallery-photo')).toHaveCount(1);
  await page.getByTestId('gallery-locked').click();
  await expect(page.getByTestId('profile-notice')).toContainText('Premium members see all photos.');
  await shot('profile-07-premium-needed');

  // Visitors' messages: log in or sign up. The members' page is left first: its live channel, losing the session
  // under it, would send it to the log-in page in the middle of the next navigation.
  await page.goto('about:blank');
  await page.context().clearCookies();
  await page.goto(`/members/${ownerInfo.id}`);
  await acceptEntryWarning(page);
  await page.getByTestId('gallery-locked').click();
  await expect(page.getByTestId('profile-notice')).toContainText('Log in or sign up to see more photos.');
  await expect(page.getByTestId('notice-login')).toHaveAttribute('href', `/login?redirect=${encodeURIComponent(`/members/${ownerInfo.id}`)}`);
  await page.getByTestId('gift-button').click();
  await expect(page.getByTestId('profile-notice')).toContainText('Log in or sign up to send gifts.');
  await expect(page.getByTestId('notice-signup')).toBeVisible();
  await shot('profile-08-visitor');

  // Premium: every photo opens.
  await signUp(page.request, 'Premium', info.project.name);
  await page.goto('/credits');
  await hydrated(page);
  await page.getByTestId('withdrawal-consent').check();
  await page.getByTestId('buy-package').first().click();
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-completed')).toBeVisible();
  await page.goto(`/members/${ownerInfo.id}`);
  await expect(page.getByTestId('gallery-photo')).toHaveCount(2);
  await expect(page.getByTestId('gallery-locked')).toHaveCount(0);
  // Members give a gift from the profile: the conversation opens with the gift picker.
  await expect(page.getByTestId('gift-button')).toHaveAttribute('href', `/members/${ownerInfo.id}/chat?gift=1`);
  await shot('profile-09-premium');
});

test('block and unblock: the blocked member only sees "not found"', async ({ page, shot, browser }, info) => {
  const other = await otherPage(browser, info.project.use.baseURL);
  const otherInfo = await signUp(other.request, 'Blocked', info.project.name);
  const me = await signUp(page.request, 'Blocker', info.project.name);

  await page.goto(`/members/${otherInfo.id}`);
  await hydrated(page);
  await page.getByTestId('block-button').click();
  await expect(page.getByTestId('block-modal')).toContainText('Block Blocked?');
  await shot('profile-10-block-confirm');
  await page.getByTestId('block-confirm').click();
  await expect(page.getByTestId('blocked-notice')).toContainText('You have blocked Blocked.');
  await expect(page.getByTestId('like-button')).toHaveCount(0);
  await shot('profile-11-blocked');

  const res = await other.goto(`/members/${me.id}`);
  expect(res?.status()).toBe(404);
  await expect(other.getByText('This page could not be found')).toBeVisible();

  await page.goto('/profile');
  await hydrated(page);
  await expect(page.getByTestId('blocked-member')).toContainText('Blocked');
  await page.getByTestId('blocked-member').getByRole('button').click();
  await expect(page.getByTestId('blocked-list')).toContainText('You have not blocked anyone.');
  await shot('profile-12-unblocked');

  const again = await other.goto(`/members/${me.id}`);
  expect(again?.status()).toBe(200);
  await expect(other.getByTestId('profile-name')).toContainText('Blocker');
  await other.context().close();
});
