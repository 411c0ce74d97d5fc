import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { creditsInCents, type CreditPrice } from '#common/chat-prices.ts';
import { formatMoney } from '#common/i18n-format.ts';
import { languageIso } from '#common/languages.ts';
import { activate, asNewVisitor, demoMembers, paidOrder, signUpByApi } from './account-helpers.ts';
import { expect, hydrated, test } from './fixtures.ts';

interface Terms { gifts: { slug: string; credits?: number }[]; prices: { gift: number; photo: number; credit_price: CreditPrice | null } }

const credits = async (page: Page) => ((await (await page.request.get('/api/user.php')).json()) as { user: { credits: number } }).user.credits;

/** "20 credits · €3.00", priced as the server prices this member's chat (their site, their currency). */
function priceText(amount: number, price: CreditPrice | null): string {
  return price ? `${amount} credits · ${formatMoney(creditsInCents(amount, price), price.currency, 'en')}` : `${amount} credits`;
}

test('a gift or a photo in the chat shows its price first: cancelling charges nothing, one more tap sends it', { tag: '@phone' }, async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'confirm-send', info.project.name);
  await paidOrder(page, `confirm-send-${info.project.name}-${Date.now()}`);
  const terms = (await (await page.request.get('/api/gifts.php')).json()) as Terms;
  const rose = terms.gifts.find((g) => g.slug === 'rose')!;
  const roseCredits = rose.credits ?? terms.prices.gift;
  const [{ id }] = await demoMembers(page.request);
  await page.goto(`/members/${id}/chat`);
  await hydrated(page);
  await page.getByTestId('icebreaker-own').click();
  const start = await credits(page);
  const confirm = page.getByTestId('confirm-send');

  // The gift: picking it asks first, with its price in credits and money.
  await page.getByTestId('open-gifts').click();
  await page.locator('[data-testid="gift-choice"][data-slug="rose"]').click();
  await expect(page.getByTestId('gift-picker')).toBeHidden();
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId('confirm-send-price')).toHaveText(`This costs ${priceText(roseCredits, terms.prices.credit_price)}. Nothing is charged until you tap Send.`);
  await shot('chat-confirm-gift');
  expect(await credits(page)).toBe(start);
  await confirm.getByTestId('confirm-send-cancel').click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('gift-message')).toHaveCount(0);
  expect(await credits(page)).toBe(start);

  await page.getByTestId('open-gifts').click();
  await page.locator('[data-testid="gift-choice"][data-slug="rose"]').click();
  await confirm.getByTestId('confirm-send-button').click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('gift-message')).toHaveCount(1);
  expect(await credits(page)).toBe(start - roseCredits);

  // The photo: choosing the file shows it with its price; nothing leaves the device until Send.
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#e76f51' } }).jpeg().toBuffer();
  let uploads = 0;
  page.on('request', (request) => { if (request.url().includes('/api/chat-photo.php')) uploads += 1; });
  await page.getByTestId('photo-input').setInputFiles({ name: 'beach.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId('confirm-send-price')).toContainText(priceText(terms.prices.photo, terms.prices.credit_price));
  await expect(confirm.locator('img')).toBeVisible();
  await shot('chat-confirm-photo');
  // One rounding rule: the composer's message price and the photo's are the same money per credit.
  const perCredit = async (text: Promise<string | null>) => {
    const [, amount, money] = /^(?:This costs )?(\d+) credits · €(\d+\.\d{2})/.exec((await text) ?? '') ?? [];
    return Math.round(Number(money) * 100) / Number(amount);
  };
  const [photoRate, messageRate] = [await perCredit(confirm.getByTestId('confirm-send-price').textContent()), await perCredit(page.getByTestId('message-cost').textContent())];
  expect(messageRate).toBeGreaterThan(0);
  expect(photoRate).toBe(messageRate);
  await confirm.getByTestId('confirm-send-cancel').click();
  await expect(confirm).toBeHidden();
  expect(uploads).toBe(0);
  await expect(page.getByTestId('photo-message')).toHaveCount(0);
  expect(await credits(page)).toBe(start - roseCredits);

  // The same file again (the input was cleared, so choosing it again counts) and Send.
  await page.getByTestId('photo-input').setInputFiles({ name: 'beach.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await confirm.getByTestId('confirm-send-button').click();
  await expect(page.getByTestId('photo-message')).toBeVisible();
  expect(uploads).toBe(1);
  expect(await credits(page)).toBe(start - roseCredits - terms.prices.photo);
});

/** Every text `format` gives for the minutes from `from` to `to` (a time stamped in between shows one of them). */
function minutesBetween(from: number, to: number, format: (d: Date) => string): Set<string> {
  const texts = new Set<string>();
  for (let t = Math.floor(from / 60_000) * 60_000; t <= to; t += 60_000) texts.add(format(new Date(t)));
  return texts;
}

test.describe('on a device in Auckland', () => {
  test.use({ timezoneId: 'Pacific/Auckland' });

  test('chat times and /transactions show the device\'s time zone, and the server renders the same after the first visit', async ({ page }, info) => {
    const headers = await asNewVisitor(page);
    // A member from the Netherlands: their country's zone (Amsterdam) is 11 or 12 hours from the device's.
    await signUpByApi(page, headers, 'device-zone', info.project.name);
    const before = Date.now();
    await paidOrder(page, `device-zone-${info.project.name}-${Date.now()}`);
    const [{ id }] = await demoMembers(page.request);
    const sent = await page.request.post('/api/messages.php', { data: { profile_id: id, text: 'Kia ora!' }, headers: { 'idempotency-key': `device-zone-${Date.now()}` } });
    expect(sent.status(), await sent.text()).toBe(201);
    const after = Date.now();
    const auckland = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(languageIso('en'), { ...options, timeZone: 'Pacific/Auckland' });

    await page.goto('/transactions');
    await hydrated(page);
    const orderTimes = minutesBetween(before, after, (d) => auckland({ dateStyle: 'medium', timeStyle: 'short' }).format(d));
    const orderTime = async () => (await page.getByTestId('order-row').first().locator('small').textContent())!.split(' · ')[0];
    await expect.poll(async () => orderTimes.has(await orderTime()), { message: `an order time in Auckland: ${[...orderTimes].join(' | ')}` }).toBe(true);

    // The browser told the server its zone: the next page comes from the server already in it.
    const html = await (await page.request.get('/transactions')).text();
    expect([...orderTimes].some((text) => html.includes(text.replace(/\u202f/g, ' ')) || html.includes(text))).toBe(true);

    await page.goto(`/members/${id}/chat`);
    await hydrated(page);
    const messageTimes = minutesBetween(before, after, (d) => auckland({ hour: '2-digit', minute: '2-digit' }).format(d));
    const bubble = page.getByTestId('message').filter({ hasText: 'Kia ora!' });
    const messageTime = async () => (await bubble.locator('.small').first().textContent())!.replace(/✓+$/, '').trim();
    await expect.poll(async () => messageTimes.has(await messageTime()), { message: `a message time in Auckland: ${[...messageTimes].join(' | ')}` }).toBe(true);
  });
});

test('offline in a conversation: a banner, no online claim, the text shows as failed with a retry that sends it once, the draft is kept', async ({ page, context, browser, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'offline-writer', info.project.name);
  await paidOrder(page, `offline-writer-${info.project.name}-${Date.now()}`);
  // A confirmed partner who is online now (nobody may write to an unconfirmed member).
  const partnerContext = await browser.newContext();
  const partnerPage = await partnerContext.newPage();
  const { email } = await signUpByApi(partnerPage, await asNewVisitor(partnerPage), 'offline-partner', info.project.name);
  await activate(partnerPage, email);
  const partner = ((await (await partnerPage.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;

  await page.goto(`/members/${partner}/chat`);
  await hydrated(page);
  await page.getByTestId('icebreaker-own').click();
  const header = page.getByTestId('conversation').locator('header');
  await expect(header.getByTestId('online')).toHaveCount(1);
  const start = await credits(page);

  await context.setOffline(true);
  await expect(page.getByTestId('offline-banner')).toHaveText("You're offline. What you write stays here; send it once you're back online.");
  await expect(header.getByTestId('online')).toHaveCount(0);
  await page.getByTestId('message-input').fill('Are you still there?');
  await page.getByTestId('send-button').click();
  const outgoing = page.getByTestId('outgoing-message');
  await expect(outgoing).toContainText('Are you still there?');
  await expect(outgoing).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(outgoing).toContainText('Not sent');
  await shot('chat-offline-failed');

  await context.setOffline(false);
  await expect(page.getByTestId('offline-banner')).toBeHidden();
  await expect(header.getByTestId('online')).toHaveCount(1);
  await outgoing.getByTestId('retry-message').click();
  await expect(page.getByTestId('message').filter({ hasText: 'Are you still there?' })).toHaveCount(1);
  await expect(outgoing).toHaveCount(0);
  const after = await credits(page);
  expect(after).toBeLessThan(start);

  // What is typed and not sent survives a reload.
  await page.getByTestId('message-input').fill('A draft for later');
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('message-input')).toHaveValue('A draft for later');
  await expect(page.getByTestId('message').filter({ hasText: 'Are you still there?' })).toHaveCount(1);
  expect(await credits(page)).toBe(after);
  await partnerContext.close();
});

test('the offline page of the installed app speaks the language the member chose after installing it', async ({ page, context, shot }) => {
  await asNewVisitor(page);
  await page.goto('/');
  await hydrated(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  // The member switches to Finnish; the next page tells the worker.
  const { hostname } = new URL(page.url());
  await context.addCookies([{ name: 'locale', value: 'fi', domain: hostname, path: '/' }]);
  await page.goto('/');
  await hydrated(page);
  await expect.poll(() => page.evaluate(async () => (await caches.match('/offline'))?.headers.get('content-language') ?? null)).toBe('fi');

  await context.setOffline(true);
  await page.goto('/').catch(() => undefined);
  await expect(page.getByTestId('offline-page')).toBeVisible();
  await expect(page.getByRole('heading')).toHaveText('Olet offline-tilassa');
  await shot('offline-start-fi');
  await context.setOffline(false);
});
