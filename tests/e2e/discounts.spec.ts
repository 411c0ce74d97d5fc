import { expect, hydrated, openNav, test } from './fixtures.ts';
import { activate, asNewVisitor, signUpByApi } from './account-helpers.ts';

test.use({ timeBonusModal: true });

const seconds = (text: string) => {
  const [h, m, s] = text.split(':').map(Number);
  return h * 3600 + m * 60 + s;
};

/**
 * A new member sees the welcome bonus count down, gets the time-bonus modal after 40 s in the members
 * area, follows it to the credits page and pays the discounted price through the test checkout.
 */
test('welcome time bonus: countdown banner, modal after 40 s, and the discounted price is what is charged', { tag: '@phone' }, async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, 'bonus', info.project.name);
  // Confirmed: a phone shows the reminder to confirm before the bonus (one banner at a time).
  await activate(page, email);
  // The page's own clock, so the test can move it on (40 s for the modal) instead of waiting.
  await page.clock.install();
  await page.goto('/members');
  await hydrated(page);

  const banner = page.getByTestId('time-bonus-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Welcome bonus: 25% off your first credits');
  const countdown = banner.getByTestId('time-bonus-countdown');
  await expect(countdown).toHaveText(/^0[34]:\d\d:\d\d$/);
  const before = seconds((await countdown.textContent())!);
  expect(before).toBeGreaterThan(14_300);
  await page.clock.fastForward(3000);
  await expect.poll(async () => before - seconds((await countdown.textContent())!)).toBeGreaterThanOrEqual(3);
  await shot('time-bonus-banner');

  // Not before 40 s in the members area; then the modal, at 0 credits.
  const modal = page.getByTestId('time-bonus-modal');
  await expect(modal).toBeHidden();
  await page.clock.fastForward('00:40');
  await expect(modal).toBeVisible();
  await expect(modal).toContainText('Special offer');
  await expect(modal.getByTestId('time-bonus-percent')).toHaveText('25%');
  await expect(modal).toContainText('welcome bonus');
  await expect(modal).toContainText('Act fast');
  await expect(modal).toContainText('Your credits arrive in your account instantly.');
  await expect(modal.getByTestId('time-bonus-modal-link')).toHaveText(/^Get my discount · 03:\d\d:\d\d left$/);
  await shot('time-bonus-modal');

  // The link closes the modal (for good: dismissed) and goes to the credits page.
  await modal.getByTestId('time-bonus-modal-link').click();
  await expect(page).toHaveURL(/\/credits$/);
  await expect(modal).toBeHidden();
  expect(Number(await page.evaluate(() => localStorage.getItem('hide-time-bonus-modal')))).toBeGreaterThan(0);

  const first = page.getByTestId('package').first();
  await expect(first.getByTestId('price-original')).toHaveText('€9.95');
  await expect(first.getByTestId('price')).toHaveText('€7.46');
  await expect(first.getByTestId('discount-label')).toHaveText('25% welcome bonus');
  // A code that does not exist is refused in the member's language; the bonus still applies.
  await page.getByTestId('discount-input').fill('NOSUCHCODE');
  await page.getByTestId('discount-apply').click();
  await expect(page.getByTestId('discount-error')).toHaveText('This discount code does not exist.');
  await expect(first.getByTestId('price')).toHaveText('€7.46');
  await shot('credits-time-bonus');

  await page.getByTestId('withdrawal-consent').check();
  await first.getByTestId('buy-package').click();
  await expect(page.getByTestId('test-checkout')).toBeVisible();
  await expect(page.getByTestId('checkout-amount')).toHaveText('€7.46');
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-completed')).toBeVisible();
  await expect(page.getByTestId('payment-status')).toContainText('€7.46');

  // Paid: the bonus is gone.
  await page.goto('/members');
  await hydrated(page);
  await page.clock.fastForward(2000);
  await expect(page.getByTestId('nav-credits')).toBeAttached();
  await expect(page.getByTestId('time-bonus-banner')).toHaveCount(0);
});

test('the deletion offer is a personal discount that is really charged, once', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'stay', info.project.name);
  await page.goto('/delete-account');
  await hydrated(page);
  await expect(page.getByTestId('offer-discount')).toContainText('50%');
  // The offer is part of leaving: it is claimed with the reason.
  await expect(page.getByTestId('claim-discount')).toBeDisabled();
  await expect(page.getByTestId('claim-discount-hint')).toHaveText('Choose your reason for leaving first.');
  await page.getByTestId('reason-too_expensive').check();
  await expect(page.getByTestId('claim-discount-hint')).toHaveCount(0);
  await page.getByTestId('claim-discount').click();
  await expect(page).toHaveURL(/\/credits\?discount=STAY50-[0-9A-F]{10}$/);
  const code = new URL(page.url()).searchParams.get('discount')!;
  // Back on the deletion page, the same offer again, not a new one.
  await page.goBack();
  await expect(page).toHaveURL(/\/delete-account$/);
  await hydrated(page);
  await page.getByTestId('reason-other').check();
  await page.getByTestId('claim-discount').click();
  await expect(page).toHaveURL(`/credits?discount=${code}`);
  await expect(page.getByTestId('discount-applied')).toHaveText(/Your personal discount of 50% is applied to every bundle\./);
  const first = page.getByTestId('package').first();
  await expect(first.getByTestId('price-original')).toHaveText('€9.95');
  await expect(first.getByTestId('price')).toHaveText('€4.97');
  await expect(first.getByTestId('discount-label')).toHaveText('Your personal discount: 50% off');
  await shot('credits-personal-discount');
  await hydrated(page);
  await page.getByTestId('withdrawal-consent').check();
  await first.getByTestId('buy-package').click();
  await expect(page.getByTestId('checkout-amount')).toHaveText('€4.97');
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-completed')).toBeVisible();
  // Used once: the same link now says so, and the full price applies again.
  await page.goto(`/credits?discount=${code}`);
  await expect(page.getByTestId('discount-error')).toHaveText('You have already used this discount code.');
  await expect(first.getByTestId('price')).toHaveText('€9.95');
  // And the deletion page offers none any more.
  await page.goto('/delete-account');
  await expect(page.getByTestId('offer-pause')).toBeVisible();
  await expect(page.getByTestId('offer-discount')).toHaveCount(0);
});

test('the welcome bonus is loaded at log-in, gone after log-out, and stops at 0', async ({ page }, info) => {
  const headers = await asNewVisitor(page);
  const { email, password } = await signUpByApi(page, headers, 'bonusclock', info.project.name);
  await page.request.post('/api/logout.php', { headers });
  await page.clock.install();
  await page.goto('/login');
  await hydrated(page);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/members$/);
  const banner = page.getByTestId('time-bonus-banner');
  await expect(banner).toBeVisible();

  // Logged out, in the same tab: the bonus is cleared with the session.
  await openNav(page, 'account-dropdown');
  await page.getByTestId('logout').click();
  await expect(page.getByTestId('account-dropdown')).toHaveCount(0);
  await expect(banner).toHaveCount(0);

  // Back in: loaded again; at 0 (4 hours after sign-up on this device's clock) it stops and is gone.
  await page.goto('/login');
  await hydrated(page);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(banner).toBeVisible();
  await page.clock.fastForward('04:00:01');
  await expect(banner).toHaveCount(0);
});
