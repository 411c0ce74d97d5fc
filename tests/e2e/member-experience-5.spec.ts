import type { Page } from '@playwright/test';
import { activate, asNewVisitor, signUpByApi } from './account-helpers.ts';
import { expect, hydrated, test } from './fixtures.ts';

/** The banners above a page's content that are on screen now: the time bonus and the alert area's alerts. */
async function visibleBanners(page: Page): Promise<{ testId: string; height: number }[]> {
  return page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid="time-bonus-banner"], [data-testid="alert-area"] > .alert')]
    .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
    .map((el) => ({ testId: el.dataset.testid ?? '', height: el.getBoundingClientRect().height })));
}

test('a phone shows one banner above the content at a time, by priority, never taller than 15 % of the screen', { tag: '@phone' }, async ({ page }, info) => {
  // A new member: e-mail not confirmed, no photo, the welcome bonus running, push not offered yet.
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, 'banners', info.project.name);
  const viewport = page.viewportSize()!;
  const phone = viewport.width < 768;

  await page.goto('/members');
  await hydrated(page);
  await expect(page.getByTestId('alert-activation')).toBeAttached();
  await expect(page.getByTestId('time-bonus-banner')).toBeAttached();
  let banners = await visibleBanners(page);
  if (phone) {
    // Confirming the address comes first.
    expect(banners.map((b) => b.testId)).toEqual(['alert-activation']);
  } else {
    // A desktop has the room for both.
    expect(banners.map((b) => b.testId)).toEqual(['time-bonus-banner', 'alert-activation']);
  }
  for (const banner of banners) expect(banner.height, banner.testId).toBeLessThanOrEqual(viewport.height * 0.15);

  // Confirmed: the time bonus is next, and the missing-photo alert waits for it on a phone.
  await activate(page, email);
  await page.goto('/members');
  await hydrated(page);
  await expect(page.getByTestId('alert-photo')).toBeAttached();
  banners = await visibleBanners(page);
  expect(banners.map((b) => b.testId)).toEqual(phone ? ['time-bonus-banner'] : ['time-bonus-banner', 'alert-photo']);
  for (const banner of banners) expect(banner.height, banner.testId).toBeLessThanOrEqual(viewport.height * 0.15);
  await page.screenshot({ path: `tests/e2e/screenshots/${info.project.name}-one-banner.png` });
});
