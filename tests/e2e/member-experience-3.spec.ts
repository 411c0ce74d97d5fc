import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { creditsInCents, type CreditPrice } from '#common/chat-prices.ts';
import { formatMoney } from '#common/i18n-format.ts';
import { asNewVisitor, demoMembers, paidOrder, signUpByApi } from './account-helpers.ts';
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
