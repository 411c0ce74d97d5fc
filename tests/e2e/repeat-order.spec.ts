import { expect, hydrated, openNav, test } from './fixtures.ts';
import { asNewVisitor, signUpByApi } from './account-helpers.ts';

/**
 * Repeat order with the built-in test provider: the first purchase keeps the payment method (a mandate),
 * the navigation then leads to repeat order, one click buys again, and the stored method is removed in one click.
 */
test('keeps a payment method, buys again in one click and removes the method', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'repeat', info.project.name);

  await page.goto('/credits');
  await hydrated(page);
  await expect(page.getByTestId('payment-method')).toHaveValue('ideal');
  await page.getByTestId('keep-method').check();
  await page.getByTestId('keep-method').scrollIntoViewIfNeeded();
  await shot('credits-keep-method');
  await page.getByTestId('withdrawal-consent').check();
  await page.getByTestId('buy-package').first().click();
  await expect(page.getByTestId('test-checkout')).toBeVisible();
  await expect(page.getByTestId('keeps-mandate')).toBeVisible();
  await hydrated(page);
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-completed')).toBeVisible();

  // Paid, with a stored method: the credits item leads to repeat order.
  await page.goto('/members');
  await hydrated(page);
  await openNav(page, 'nav-credits');
  await expect(page).toHaveURL(/\/credits\/repeat-order$/);
  await expect(page.getByTestId('credit-balance')).toHaveText('You have 50 credits.');
  await expect(page.getByTestId('mandate')).toHaveCount(1);
  await expect(page.getByTestId('mandate')).toContainText('SEPA direct debit');
  await expect(page.getByTestId('mandate')).toContainText('•••• 4300');
  await hydrated(page);
  await page.getByTestId('mandates').scrollIntoViewIfNeeded();
  await shot('repeat-order');

  // Each repeat order is a new contract: without the withdrawal consent the click asks for it and buys nothing.
  await page.getByTestId('repeat-buy').first().click();
  await expect(page.getByTestId('withdrawal-consent')).toHaveClass(/is-invalid/);
  await expect(page.getByText('Please confirm that delivery starts at once and that you thereby lose your right of withdrawal.')).toBeVisible();
  await expect(page).toHaveURL(/\/credits\/repeat-order$/);
  await page.getByTestId('withdrawal-consent').scrollIntoViewIfNeeded();
  await shot('repeat-order-consent-missing');
  await page.getByTestId('withdrawal-consent').check();
  await page.getByTestId('repeat-buy').first().click();
  await expect(page).toHaveURL(/\/credits\/ord_/);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('payment-completed')).toBeVisible();
  await page.getByTestId('payment-status').scrollIntoViewIfNeeded();
  await shot('repeat-order-paid');
  // The consent is recorded with the repeat order.
  const orderId = new URL(page.url()).pathname.split('/').pop()!;
  await page.goto(`/transactions/${orderId}`);
  await expect(page.getByText(/agreed that delivery starts at once/)).toBeVisible();

  await page.goto('/credits/repeat-order');
  await hydrated(page);
  await expect(page.getByTestId('credit-balance')).toHaveText('You have 100 credits.');
  await page.getByTestId('cancel-mandate').click();
  await expect(page.getByTestId('no-mandates')).toBeVisible();
  await page.getByTestId('no-mandates').scrollIntoViewIfNeeded();
  await shot('repeat-order-none');
  // Without a stored method the credits item leads to the credits page.
  await expect(page.getByTestId('nav-credits')).toHaveAttribute('href', '/credits');
});
