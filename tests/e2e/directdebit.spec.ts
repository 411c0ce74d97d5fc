import { expect, hydrated, test } from './fixtures.ts';
import { asNewVisitor, fillDirectDebitDetails, latestSmsCode, newMobile, signUpByApi } from './account-helpers.ts';

/**
 * SEPA direct debit from the credits page: the form with its field errors, the code from the SMS (read from
 * the dev SMS outbox, as a phone would), a wrong code, the right one, and the pending debit settled on the
 * test provider's checkout until the credits are there.
 */
test('pays a bundle by direct debit with an SMS code', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'directdebit', info.project.name);

  await page.goto('/credits');
  await page.getByTestId('pay-direct-debit').first().scrollIntoViewIfNeeded();
  await shot('credits-direct-debit-link');
  await page.getByTestId('pay-direct-debit').first().click();
  await expect(page).toHaveURL(/\/directdebit\?package=\d+/);
  await hydrated(page);
  // The price with the welcome bonus, as on the credits page.
  await expect(page.getByTestId('dd-bundle')).toContainText('€');
  const bundle = await page.getByTestId('dd-bundle').textContent();

  // Nothing filled in: every field says what it needs.
  await page.getByTestId('dd-send-code').click();
  await expect(page.getByTestId('dd-iban-error')).toHaveText('Please enter your IBAN.');
  await expect(page.getByTestId('dd-mandate_consent-error')).toHaveText('Please authorise the direct debit to continue.');

  const mobile = newMobile();
  await fillDirectDebitDetails(page, { iban: 'NL92 ABNA 0417 1643 00', mobile });
  await expect(page.getByTestId('dd-iban-error')).toHaveText('This IBAN is not valid. Please check it and try again.');
  await page.getByTestId('dd-details').scrollIntoViewIfNeeded();
  await shot('directdebit-form-error');
  await page.getByTestId('dd-iban').fill('nl91 abna 0417 1643 00');
  await expect(page.getByTestId('dd-iban-error')).toBeHidden();
  const sentAfter = Date.now() - 1000;
  await page.getByTestId('dd-send-code').click();

  await expect(page.getByTestId('dd-code-step')).toBeVisible();
  await expect(page).toHaveURL(/request=dd_/);
  await expect(page.getByTestId('dd-code-sent')).toContainText(new RegExp(`\\+31\\s••••\\s${mobile.slice(-4)}`));
  const code = await latestSmsCode(page.request, mobile, sentAfter);
  await hydrated(page);
  await page.getByTestId('dd-code').fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
  await page.getByTestId('dd-confirm').click();
  await expect(page.getByTestId('dd-code-error')).toHaveText('This code is not correct. Please check the SMS and try again.');
  await page.getByTestId('dd-code').fill(code);
  await page.getByTestId('dd-code-step').scrollIntoViewIfNeeded();
  await shot('directdebit-code');
  await page.getByTestId('dd-confirm').click();

  // The debit is under way: pending until the bank (here the test checkout) settles it.
  await expect(page).toHaveURL(/\/credits\/ord_/);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('payment-status')).toContainText('SEPA direct debit');
  await shot('directdebit-pending');
  await page.getByTestId('finish-payment').click();
  await expect(page.getByTestId('test-checkout')).toBeVisible();
  await expect(page.getByTestId('checkout-amount')).toHaveText(bundle!.replace(/^.* for /, '').trim());
  await hydrated(page);
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-completed')).toBeVisible();
  await expect(page.getByTestId('payment-status')).toContainText('50 credits');
  await page.getByTestId('payment-status').scrollIntoViewIfNeeded();
  await shot('directdebit-paid');

  // Back to the code step (browser history): the request is used, the page leads to its order.
  await page.goBack();
  await page.goBack();
  await expect(page).toHaveURL(/\/credits\/ord_/);
});

test('without JavaScript the form answers with its errors beside the fields', { tag: '@phone' }, async ({ browser }, info) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: info.project.name === 'mobile' ? { width: 375, height: 740 } : { width: 1280, height: 900 } });
  const page = await context.newPage();
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'directdebit-nojs', info.project.name);
  await page.goto('/directdebit');
  await page.getByTestId('dd-package').first().click();
  await page.getByTestId('dd-account_holder').fill('Kim de Vries');
  await page.getByTestId('dd-iban').fill('BR18 0036 0305 0000 1000 9795 493C 1');
  await page.getByTestId('dd-mobile').fill('0612345678');
  await page.getByTestId('dd-send-code').click();
  await expect(page.getByTestId('dd-iban-error')).toHaveText('Direct debit works only with an account in a SEPA country.');
  await expect(page.getByTestId('dd-mobile-error')).toHaveText('Please enter your mobile number with the country code, e.g. +31 6 12345678.');
  await expect(page.getByTestId('dd-street-error')).toHaveText('Please enter your street.');
  // The typed values come back.
  await expect(page.getByTestId('dd-account_holder')).toHaveValue('Kim de Vries');
  await context.close();
});
