import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { asNewVisitor, latestMail, linkIn, signUpByApi } from './account-helpers.ts';

/** Buys the first bundle through the test checkout, as its owner. */
async function buyCredits(page: Page) {
  const { packages } = (await (await page.request.get('/api/packages.php')).json()) as { packages: { id: number }[] };
  const order = await page.request.post('/api/order.php', {
    data: { package_id: packages[0].id, paymentmethod: 'ideal' }, headers: { 'idempotency-key': `chat-live-order-${Date.now()}` },
  });
  expect(order.status(), await order.text()).toBeLessThan(300);
  const { order: placed } = (await order.json()) as { order: { payment_id: string } };
  expect((await page.request.post('/api/test-checkout.php', { data: { id: placed.payment_id, outcome: 'paid' } })).status()).toBe(200);
}

const idOf = async (page: Page) => ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;

test('two members chat live: message, unread badge, read receipt and typing, without a reload', async ({ page, browser, shot }, info) => {
  test.skip(info.project.name === 'mobile', 'the two-member flow is the same at both widths; the mobile layout is covered by the chat pages');
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
