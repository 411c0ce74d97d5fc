import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, hydrated, test } from './fixtures.ts';
import { asNewVisitor, latestMail, linkIn, signUpByApi } from './account-helpers.ts';

/** Buys the first bundle through the test checkout, as its owner. */
async function buyCredits(page: Page) {
  const { packages } = (await (await page.request.get('/api/packages.php')).json()) as { packages: { id: number }[] };
  const order = await page.request.post('/api/order.php', {
    data: { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, headers: { 'idempotency-key': `chat-live-order-${Date.now()}` },
  });
  expect(order.status(), await order.text()).toBeLessThan(300);
  const { order: placed } = (await order.json()) as { order: { payment_id: string } };
  expect((await page.request.post('/api/test-checkout.php', { data: { id: placed.payment_id, outcome: 'paid' } })).status()).toBe(200);
}

const idOf = async (page: Page) => ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;

test('two members chat live: message, unread badge, read receipt and typing, without a reload', async ({ page, browser, shot }, info) => {
  // B: a confirmed member (only confirmed members can be written to), waiting on the chats page.
  const bContext = await browser.newContext();
  const b = await bContext.newPage();
  const bHeaders = await asNewVisitor(b);
  const { email: bEmail } = await signUpByApi(b, bHeaders, 'chat-live-b', info.project.name);
  await b.goto(linkIn(await latestMail(b.request, bEmail, 'activation'), '/api/activate.php'));
  const bId = await idOf(b);
  await b.goto('/chats');
  await expect(b.locator('html')).toHaveAttribute('data-live', 'open');

  // A: buys credits and opens the conversation with B.
  const headers = await asNewVisitor(page);
  const { email: aEmail } = await signUpByApi(page, headers, 'chat-live-a', info.project.name);
  await page.goto(linkIn(await latestMail(page.request, aEmail, 'activation'), '/api/activate.php'));
  await buyCredits(page);
  await page.goto(`/members/${bId}/chat`);
  await expect(page.locator('html')).toHaveAttribute('data-live', 'open');
  await page.getByTestId('icebreaker-own').click();

  await page.getByTestId('message-input').fill('Hi B, how is your evening?');
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('message')).toHaveCount(1);
  await expect(page.getByTestId('read-mark')).toHaveAttribute('data-read', 'false');

  // B's list and badge update at once, and the title counts it.
  await expect(b.getByTestId('unread-badge')).toHaveText('1');
  await expect(b.getByTestId('chat-unread')).toHaveText('1');
  await expect(b).toHaveTitle(/^\(1\)/);
  await b.getByTestId('chat-item').first().click();
  await expect(b.getByTestId('chat-unread')).toHaveCount(0);
  await expect(b.getByTestId('message')).toHaveText([/Hi B, how is your evening\?/]);

  // A sees that B has read it…
  await expect(page.getByTestId('read-mark')).toHaveAttribute('data-read', 'true');
  // …and that B is typing.
  await b.getByTestId('message-input').fill('Lovely, th');
  await expect(page.getByTestId('typing-indicator')).toBeVisible();
  await shot('chat-live-typing');

  // A's next message appears in B's open conversation without a reload.
  await page.getByTestId('message-input').fill('Glad to hear!');
  await page.getByTestId('send-button').click();
  await expect(b.getByTestId('message')).toHaveCount(2);
  await expect(b.getByTestId('message').last()).toContainText('Glad to hear!');
  await bContext.close();
});

test('gifts, photos, the word filter and removing a conversation, between two members', async ({ page, browser, shot }, info) => {
  // Two members, a purchase, a gift and an upload: a long journey.
  test.slow();
  // B: confirmed, filters one word, waits in the chats.
  const bContext = await browser.newContext();
  const b = await bContext.newPage();
  const bHeaders = await asNewVisitor(b);
  const { email: bEmail } = await signUpByApi(b, bHeaders, 'chat-extras-b', info.project.name);
  await b.goto(linkIn(await latestMail(b.request, bEmail, 'activation'), '/api/activate.php'));
  const bId = await idOf(b);
  // B's own page, outside the fixture: its goto does not wait for the page's code, and the filter's button needs it.
  await b.goto('/notifications');
  await hydrated(b);
  await b.getByTestId('word-filter-input').fill('Whatsapp');
  await b.getByTestId('word-filter-add').click();
  await expect(b.getByTestId('word-filter-word')).toHaveText(['whatsapp×']);
  await b.getByTestId('word-filter-input').fill('x');
  await b.getByTestId('word-filter-add').click();
  await expect(b.getByTestId('word-filter-error')).toHaveText('A filter word needs at least 2 characters.');
  await b.goto('/chats');
  await expect(b.locator('html')).toHaveAttribute('data-live', 'open');

  // A: buys credits and opens the chat; an opener from the icebreaker fills the message box.
  const headers = await asNewVisitor(page);
  const { email: aEmail } = await signUpByApi(page, headers, 'chat-extras-a', info.project.name);
  await page.goto(linkIn(await latestMail(page.request, aEmail, 'activation'), '/api/activate.php'));
  await buyCredits(page);
  await page.goto(`/members/${bId}/chat`);
  await expect(page.getByTestId('icebreaker')).toBeVisible();
  await shot('chat-icebreaker');
  await page.getByTestId('icebreaker-suggestion').first().click();
  await expect(page.getByTestId('message-input')).toHaveValue(/^Hi .+! Your profile made me smile\. How is your week going\?$/);
  await page.getByTestId('send-button').click();
  await expect(b.getByTestId('chat-item')).toHaveCount(1);
  const balance = async () => Number((await page.getByTestId('nav-credits').textContent())?.replace(/\D/g, ''));
  const before = await balance();

  // A filtered message: delivered to nobody, free for A, and A is told.
  await page.getByTestId('message-input').fill('Add me on WhatsApp?');
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('filtered-note')).toBeVisible();
  await expect(page.getByTestId('nav-credits')).toHaveText(`${before} credits`);

  // A gift: its price is on the picker, it shows in both chats, live.
  await page.getByTestId('open-gifts').click();
  await expect(page.getByTestId('gift-picker')).toContainText(/Each gift costs 20 credits · €\d+\.\d{2}\./);
  await shot('chat-gift-picker');
  await page.locator('[data-testid="gift-choice"][data-slug="rose"]').click();
  await expect(page.getByTestId('gift-picker')).toBeHidden();
  await page.getByTestId('confirm-send-button').click();
  await expect(page.getByTestId('gift-message')).toContainText('Rose');
  await expect(page.getByTestId('nav-credits')).toHaveText(`${before - 20} credits`);

  // A photo from the device: it reaches B's open conversation.
  await b.getByTestId('chat-item').first().click();
  await b.getByTestId('icebreaker-own').click({ timeout: 2_000 }).catch(() => undefined);
  await expect(b.getByTestId('gift-message')).toContainText('Rose');
  await expect(b.getByTestId('message')).toHaveCount(2);
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2a9d8f' } }).jpeg().toBuffer();
  await page.getByTestId('photo-input').setInputFiles({ name: 'sunset.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await page.getByTestId('confirm-send-button').click();
  await expect(page.getByTestId('photo-message')).toBeVisible();
  await expect(page.getByTestId('nav-credits')).toHaveText(`${before - 30} credits`);
  await expect(b.getByTestId('photo-message')).toBeVisible();
  const photo = b.getByTestId('photo-message').locator('img');
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(b.getByText('Add me on WhatsApp?')).toHaveCount(0);
  await shot('chat-gift-and-photo');
  await b.screenshot({ path: `tests/e2e/screenshots/${info.project.name}-chat-received-gift-photo.png` });

  // B removes the conversation from the header: gone from B's list, still in A's.
  b.once('dialog', (d) => void d.accept());
  await b.getByTestId('delete-conversation').click();
  await expect(b).toHaveURL(/\/chats$/);
  await expect(b.getByTestId('chat-item')).toHaveCount(0);
  await page.goto('/chats');
  await expect(page.getByTestId('chat-item')).toHaveCount(1);
  await bContext.close();
});

test('a chat with someone who does not exist shows the error inside the chat bar, with the way back', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'chat-404', info.project.name);
  expect((await page.goto('/members/2147483000/chat'))?.status()).toBe(404);
  await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404');
  await expect(page.getByTestId('chat-bar')).toBeVisible();
  await expect(page.getByTestId('nav-credits')).toBeVisible();
  await shot('chat-404');
  await page.getByTestId('chat-bar').getByTestId('logo').click();
  await expect(page).toHaveURL(/\/members$/);
});
