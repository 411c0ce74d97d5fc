import type { Page } from '@playwright/test';
import { asNewVisitor } from './account-helpers.ts';
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
