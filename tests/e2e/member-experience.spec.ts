import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { activate, asNewVisitor, demoMembers, newMember, paidOrder, signUpByApi } from './account-helpers.ts';
import { expect, test } from './fixtures.ts';

async function fillAccount(page: Page, email: string) {
  await page.locator('#signup-email').fill(email);
  await page.locator('#signup-name').fill('Swiper');
  await page.locator('#signup-password').fill('swipe-right-password');
  await page.locator('#signup-dob').fill('1988-07-14');
  await page.locator('#signup-gender').selectOption('male');
  await page.locator('#signup-country').selectOption('NL');
}

test('tinderswipe: a visitor\'s like is no match; it is kept and becomes a real like at sign-up', { tag: '@phone' }, async ({ page, shot }, info) => {
  await asNewVisitor(page);
  await page.goto('/landers/tinderswipe');
  const cards = page.getByTestId('swipe-card');
  await expect(cards.first()).toBeVisible();
  const name = (await cards.last().locator('img').getAttribute('alt'))!;
  await page.getByTestId('swipe-like').click();
  const liked = page.getByTestId('swipe-liked');
  await expect(liked).toContainText(`Sign up so that ${name} sees your like.`);
  await expect(page.getByText('It’s a match!')).toHaveCount(0);
  await shot('lander-tinderswipe-liked');
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('pending-likes') ?? '[]') as number[]);
  expect(stored).toHaveLength(1);

  await liked.getByTestId('lander-signup').click();
  if (info.project.name !== 'mobile') await expect(page.getByTestId('signup-modal')).toBeVisible();
  await fillAccount(page, `swiper.${info.project.name}.${Date.now()}@example.org`);
  await page.getByTestId('signup-submit').click();
  await expect(page.getByTestId('signup-flow')).toHaveAttribute('data-step', 'photo');
  // The like is the new member's now, given through the like use case; the browser keeps it no longer.
  const likes = await (await page.request.get('/api/likes.php')).json() as { profiles: { id: number; name: string }[] };
  expect(likes.profiles.map((p) => p.id)).toEqual(stored);
  expect(likes.profiles[0].name).toBe(name);
  expect(await page.evaluate(() => localStorage.getItem('pending-likes'))).toBeNull();
});

test('landers show visitors no member who joined minutes ago, and the video lander shows a photo as a photo', async ({ page, browser }, info) => {
  // A woman joins and adds a photo: shown at once to members (moderation after publication), not yet to visitors.
  const joined = await newMember(browser, 'fresh-face', info.project.name);
  const jpeg = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#b46' } }).jpeg().toBuffer();
  const upload = await joined.page.request.post('/api/photos.php', { multipart: { photo: { name: 'me.jpg', mimeType: 'image/jpeg', buffer: jpeg } } });
  expect(upload.status(), await upload.text()).toBeLessThan(300);
  await joined.close();

  await asNewVisitor(page);
  for (const lander of ['/landers/gallery/women-nl', '/landers/tinderswipe', '/landers/video/women-nl']) {
    await page.goto(lander);
    await expect(page.getByTestId('lander-profiles')).toBeVisible();
    const links = await page.locator('[data-testid="lander-profiles"] a, [data-testid="lander-profiles"] ~ * a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(links.some((href) => href.startsWith(`/members/${joined.id}/`)), `${lander} leaves the new member out`).toBe(false);
  }
  const search = await (await page.request.get('/api/members.php?gender=female&country=NL')).json() as { profiles: { id: number; main_image: unknown }[] };
  expect(search.profiles.find((p) => p.id === joined.id)?.main_image, 'the open search still finds her, with her photo').toBeTruthy();

  // On the video lander: a photo, labelled so; nothing plays, counts or fills.
  await expect(page.getByTestId('video-tag')).toHaveText('Photo');
  await expect(page.locator('.video-bar, .video-clock, [data-testid="video-play"], .video-grain')).toHaveCount(0);
  expect(await page.locator('.video-screen img').evaluate((img) => img.getAnimations().length)).toBe(0);
});

test('a match is a moment for both: the member whose like completes it and the one who liked first get the full overlay', { tag: '@phone' }, async ({ page, browser, shot }, info) => {
  // Kim (this page) and a member who liked her first, each in a browser of their own.
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'match-kim', info.project.name);
  const kim = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
  const first = await newMember(browser, 'match-first', info.project.name);
  const firstName = ((await (await first.page.request.get('/api/user.php')).json()) as { user: { profile: { name: string } } }).user.profile.name;
  expect((await first.page.request.post('/api/like.php', { data: { profile_id: kim } })).status()).toBe(200);
  // The first liker is on the search page, connected live.
  await first.page.goto('/members');
  await expect(first.page.locator('html')).toHaveAttribute('data-live', 'open');

  await page.goto(`/members/${first.id}`);
  await page.getByTestId('like-button').click();
  const overlay = page.getByTestId('like-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay.getByRole('heading')).toHaveText(`It's a match with ${firstName}!`);
  await expect(overlay.getByTestId('like-overlay-action')).toHaveText('Send a message');
  await shot('match-overlay-completer');

  // The other member gets it live, with the same action.
  const theirs = first.page.getByTestId('like-overlay');
  await expect(theirs).toBeVisible();
  await expect(theirs.getByRole('heading')).toHaveText(`It's a match with Kim!`);
  await theirs.getByTestId('like-overlay-action').click();
  await expect(first.page).toHaveURL(new RegExp(`/members/${kim}/chat$`));

  await overlay.getByTestId('like-overlay-action').click();
  await expect(page).toHaveURL(new RegExp(`/members/${first.id}/chat$`));
  await first.close();
});

test('a member who was away when their like became a match gets the overlay on their next page', async ({ page, browser }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'match-away', info.project.name);
  const me = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
  const other = await newMember(browser, 'match-back', info.project.name);
  expect((await page.request.post('/api/like.php', { data: { profile_id: other.id } })).status()).toBe(200);
  expect(await (await other.page.request.post('/api/like.php', { data: { profile_id: me } })).json()).toEqual({ match: true });
  await other.close();
  await page.goto('/members');
  const overlay = page.getByTestId('like-overlay');
  await expect(overlay.getByRole('heading')).toHaveText(/^It's a match with /);
  await expect(overlay.getByTestId('like-overlay-action')).toHaveText('Send a message');
});

test('the profile\'s gift action opens the gift picker for that member, with its price; the gift starts the conversation', { tag: '@phone' }, async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'gift-giver', info.project.name);
  await paidOrder(page, `gift-${info.project.name}-${Date.now()}`);
  // A confirmed member (nobody may write to an unconfirmed one): one of the demo members.
  const [{ id }] = await demoMembers(page.request);
  const { profile: other } = (await (await page.request.get(`/api/profile.php?id=${id}`)).json()) as { profile: { id: number; name: string } };

  await page.goto(`/members/${other.id}`);
  const actions = page.getByTestId('like-button').locator('..');
  await expect(actions.getByTestId('gift-button')).toBeVisible();
  await actions.getByTestId('gift-button').click();
  await expect(page).toHaveURL(new RegExp(`/members/${other.id}/chat$`));
  const picker = page.getByTestId('gift-picker');
  await expect(picker).toBeVisible();
  await expect(picker).toContainText(`A gift for ${other.name}`);
  await expect(picker).toContainText(/Each gift costs \d+ credits/);
  await shot('profile-gift-picker');
  await picker.getByTestId('gift-choice').first().click();
  await expect(picker).toBeHidden();
  await page.getByTestId('confirm-send-button').click();
  await expect(page.getByTestId('gift-message')).toHaveCount(1);
  await expect(page.getByTestId('send-error')).toHaveCount(0);
  // A reload shows the conversation, not the picker again.
  await page.reload();
  await expect(page.getByTestId('gift-message')).toHaveCount(1);
  await expect(page.getByTestId('gift-picker')).toHaveCount(0);
});

test('the match overlay marks the conversation being started until the chat has opened', async ({ page, browser }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'starting', info.project.name);
  const me = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
  const other = await newMember(browser, 'starting-other', info.project.name);
  expect((await other.page.request.post('/api/like.php', { data: { profile_id: me } })).status()).toBe(200);
  await other.close();
  await page.goto(`/members/${other.id}`);
  // The conversation's data is held back, so that the moment in between can be seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  await page.route(`**/members/${other.id}/chat.data*`, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByTestId('like-button').click();
  const overlay = page.getByTestId('like-overlay');
  await overlay.getByTestId('like-overlay-action').click();
  await expect(overlay).toHaveAttribute('data-starting', 'true');
  await expect(overlay.getByTestId('like-overlay-action')).toBeDisabled();
  await expect(overlay.getByTestId('like-overlay-action')).toHaveText('Opening your chat with Kim…');
  release();
  await expect(page).toHaveURL(new RegExp(`/members/${other.id}/chat$`));
  await expect(overlay).toHaveCount(0);
});

test('swipe game on a phone: the daily-limit notice lies over the card and never pushes the buttons under the tab bar; every card has a photo', { tag: '@phone' }, async ({ page, browser, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'swipe-limit', info.project.name);
  // A woman without a photo, active just now (the deck deals the recently active first).
  const faceless = await newMember(browser, 'swipe-faceless', info.project.name);
  await faceless.close();
  const deck = (await (await page.request.get('/api/swipe-game.php')).json()) as { profiles: { id: number; main_image: { status: string } | null }[] };
  expect(deck.profiles.length).toBeGreaterThan(4);
  expect(deck.profiles.map((p) => p.id)).not.toContain(faceless.id);
  expect(deck.profiles.every((p) => p.main_image?.status === 'active')).toBe(true);
  for (const p of deck.profiles.slice(0, 4)) {
    expect((await page.request.post('/api/swipe-game.php', { data: { profile_id: p.id, action: 'like' } })).status()).toBe(200);
  }
  await page.goto('/swipe-game');
  const like = page.getByTestId('swipe-like');
  const tabBar = page.getByTestId('tab-bar');
  const above = async () => {
    const box = (await like.boundingBox())!;
    if (await tabBar.isVisible()) expect(box.y + box.height, 'the like button is above the tab bar').toBeLessThanOrEqual((await tabBar.boundingBox())!.y);
    else expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    return box;
  };
  const before = await above();
  await like.click();
  await expect(page.getByTestId('swipe-notice')).toContainText('You have used your 4 likes for today.');
  await expect(page.getByTestId('swipe-notice')).toBeInViewport();
  const after = await above();
  expect(after.y, 'the buttons stay where they were').toBe(before.y);
  await shot('swipe-limit-notice');
  await expect(page.locator('[data-testid="swipe-card"] img')).toHaveCount(1);
});

test('the "Add a photo" alert opens the profile at the photo upload, with the focus on it', { tag: '@phone' }, async ({ page }, info) => {
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, 'add-photo', info.project.name);
  await activate(page, email);
  // A premium member: no welcome bonus running, which a phone would show first (one banner at a time).
  await paidOrder(page, `add-photo-${Date.now()}`);
  await page.goto('/members');
  await page.getByTestId('alert-photo-link').click();
  await expect(page).toHaveURL(/\/profile#photos$/);
  const file = page.locator('#photo-file');
  await expect(file).toBeFocused();
  await expect(file).toBeInViewport();
  await expect(page.getByTestId('photo-manager').getByRole('heading', { level: 2 })).toBeInViewport();
});

test('a conversation whose partner deleted their account stays readable, marked "has left", with the composer off', { tag: '@phone' }, async ({ page, browser, shot }, info) => {
  // The partner: confirmed (so that one may write to them), in a browser of their own.
  const context = await browser.newContext();
  const partner = await context.newPage();
  const partnerHeaders = await asNewVisitor(partner);
  const { email, password } = await signUpByApi(partner, partnerHeaders, 'leaving', info.project.name);
  await activate(partner, email);
  const partnerId = ((await (await partner.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;

  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'staying', info.project.name);
  await paidOrder(page, `left-${info.project.name}-${Date.now()}`);
  const sent = await page.request.post('/api/messages.php', { data: { profile_id: partnerId, text: 'See you on Friday?' }, headers: { 'idempotency-key': `left-${Date.now()}` } });
  expect(sent.status(), await sent.text()).toBe(201);
  const conversationId = ((await sent.json()) as { message: { conversation_id: number } }).message.conversation_id;

  expect((await partner.request.delete('/api/user.php', { data: { password } })).status()).toBe(200);
  await context.close();

  await page.goto('/chats');
  const item = page.getByTestId('chat-item').filter({ hasText: 'See you on Friday?' });
  await expect(item.getByTestId('chat-left')).toHaveText('Has left');
  const response = await page.goto(`/chats/${conversationId}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId('message')).toContainText('See you on Friday?');
  await expect(page.getByTestId('member-left')).toContainText('has left and deleted their account');
  await expect(page.getByTestId('message-input')).toBeDisabled();
  await expect(page.getByTestId('send-button')).toBeDisabled();
  await expect(page.getByTestId('open-gifts')).toBeDisabled();
  await shot('chat-partner-left');
  // By their member id too.
  expect((await page.goto(`/members/${partnerId}/chat`))?.status()).toBe(200);
  await expect(page.getByTestId('member-left')).toBeVisible();
});
