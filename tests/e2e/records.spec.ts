import type { Page } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { asNewVisitor, demoMembers, signUpByApi } from './account-helpers.ts';

type Placed = { order: { id: string; payment_id: string } };

/** Places an order through the API (with the withdrawal consent) and lets the test checkout decide it. */
async function placeOrder(page: Page, method: string, outcome?: 'paid' | 'failed' | 'canceled' | 'pending') {
  const { packages } = (await (await page.request.get('/api/packages.php')).json()) as { packages: { id: number }[] };
  const res = await page.request.post('/api/order.php', {
    data: { package_id: packages[0].id, paymentmethod: method, withdrawal_consent: true },
    headers: { 'idempotency-key': `records-${method}-${outcome ?? 'open'}-${Date.now()}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { order } = (await res.json()) as Placed;
  if (outcome) expect((await page.request.post('/api/test-checkout.php', { data: { id: order.payment_id, outcome } })).status()).toBe(200);
  return order;
}

/** Scrolls the element to the top of the screen, below the sticky navigation, for a screenshot. */
async function reveal(page: Page, testId: string) {
  await page.getByTestId(testId).first().evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
}

async function member(page: Page, prefix: string, project: string) {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, prefix, project);
}

test('visitors see the prices, what premium unlocks and a way to sign up', async ({ page, shot }) => {
  await asNewVisitor(page);
  await page.goto('/pricing');
  await expect(page.getByTestId('package')).toHaveCount(4);
  await expect(page.getByTestId('package').first()).toContainText('€9.95');
  await expect(page.getByTestId('benefit-uploads').locator('td')).toHaveText(['3', '25']);
  await expect(page.getByTestId('benefit-conversations').locator('td')).toHaveText(['2', 'Unlimited']);
  await expect(page.getByTestId('pricing-cta').first()).toHaveAttribute('href', '/signup');
  await expect(page.getByTestId('header-balance')).toHaveCount(0);
  await shot('records-01-pricing');
});

test('a free member sees the premium offer, buys with the withdrawal consent and then sees they are premium', { tag: '@phone' }, async ({ page, shot }, info) => {
  await member(page, 'premium', info.project.name);
  await page.goto('/premium');
  await hydrated(page);
  await expect(page.getByTestId('premium-claim')).toContainText('46% more chance');
  await expect(page.getByTestId('header-balance')).toHaveText('0 credits');
  await expect(page.getByTestId('premium-badge')).toHaveCount(0);
  // A new member's bundles carry the 25% welcome time bonus: the button says what is charged.
  await expect(page.getByTestId('buy-package').first()).toHaveText('Buy for €7.46');
  await reveal(page, 'premium-offer');
  await shot('records-02-premium-offer');
  await reveal(page, 'purchase');
  await shot('records-02b-premium-packages');
  // Without the consent nothing is ordered.
  await page.getByTestId('buy-package').first().click();
  await expect(page.locator('.invalid-feedback')).toContainText('right of withdrawal');
  await expect(page).toHaveURL(/\/premium$/);
  await shot('records-03-consent-required');
  await page.getByTestId('withdrawal-consent').check();
  await page.getByTestId('buy-package').first().click();
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('header-balance')).toHaveText('50 credits');
  await expect(page.getByTestId('premium-badge')).toBeVisible();
  await reveal(page, 'payment-status');
  await shot('records-04-status-completed');
  await page.goto('/premium');
  await expect(page.getByTestId('premium-status')).toContainText('You are a premium member');
  await expect(page.getByTestId('premium-benefits')).toBeVisible();
  await reveal(page, 'premium-status');
  await shot('records-05-premium-member');
});

test('the payment status page: checking, pending (finish or cancel), failed card (retry or PayPal), failed and cancelled', async ({ page, shot }, info) => {
  // Eight screens, each with its accessibility check: longer than one minute on a busy machine.
  test.slow();
  await member(page, 'status', info.project.name);
  const open = await placeOrder(page, 'ideal');
  await page.goto(`/credits/${open.id}`);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'loading');
  await expect(page.getByTestId('finish-payment')).toHaveAttribute('href', `/test-checkout/${open.payment_id}`);
  await reveal(page, 'payment-status');
  await shot('records-06-status-loading');

  const pending = await placeOrder(page, 'banktransfer', 'pending');
  await page.goto(`/credits/${pending.id}`);
  await hydrated(page);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'pending');
  await reveal(page, 'payment-status');
  await shot('records-07-status-pending');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByTestId('cancel-payment').click();
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('retry-payment')).toBeVisible();
  await reveal(page, 'payment-status');
  await shot('records-08-status-cancelled');

  const card = await placeOrder(page, 'creditcard', 'failed');
  await page.goto(`/credits/${card.id}`);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('retry-card')).toBeVisible();
  await reveal(page, 'payment-status');
  await shot('records-09-status-failed-card');
  await page.getByTestId('retry-paypal').click();
  await expect(page).toHaveURL(/\/credits\?package=\d+&method=paypal$/);
  await expect(page.getByTestId('payment-method')).toHaveValue('paypal');
  await expect(page.getByTestId('package-highlight')).toHaveText('Your choice');

  const failed = await placeOrder(page, 'ideal', 'failed');
  await page.goto(`/credits/${failed.id}`);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('retry-payment')).toBeVisible();
  await reveal(page, 'payment-status');
  await shot('records-10-status-failed');
  // The address with the method (/credits/{id}/{paymentmethod}, as a provider may return to) shows the same.
  await page.goto(`/credits/${failed.id}/ideal`);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'failed');

  // A pending payment can also be finished: back to the checkout, where it is paid.
  const later = await placeOrder(page, 'ideal', 'pending');
  // Its welcome time bonus stays with it while it is under way: a new checkout is refused and points to it.
  await page.goto('/credits');
  await hydrated(page);
  await page.getByTestId('withdrawal-consent').check();
  await page.getByTestId('buy-package').first().click();
  await expect(page.getByTestId('purchase-error')).toContainText('This discount is already on a payment you started');
  await reveal(page, 'purchase-error');
  await shot('records-11-discount-in-use');
  await page.getByTestId('purchase-error-transactions').click();
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(page.getByTestId('order-row').first()).toContainText(/pending/i);
  await page.goto(`/credits/${later.id}`);
  await page.getByTestId('finish-payment').click();
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'completed');
});

test('transactions: orders, credit history, an order with its invoice, and the spend cap with its cooling-off prompt', { tag: '@phone' }, async ({ page, shot }, info) => {
  await member(page, 'records', info.project.name);
  await page.goto('/transactions');
  await expect(page.getByTestId('no-orders')).toBeVisible();
  const paid = await placeOrder(page, 'ideal', 'paid');
  await placeOrder(page, 'paypal', 'failed');
  await page.goto('/transactions');
  await hydrated(page);
  await expect(page.getByTestId('order-row')).toHaveCount(2);
  await expect(page.getByTestId('ledger-row')).toHaveCount(1);
  await expect(page.getByTestId('ledger-row').first()).toContainText('Credits bought');
  await expect(page.getByTestId('ledger-row').first()).toContainText('+50 credits');
  // A cap applies at once; raising it asks first and waits 24 hours.
  await page.getByTestId('spend-cap-period').selectOption('day');
  await page.getByTestId('spend-cap-credits').fill('20');
  await page.getByTestId('spend-cap-save').click();
  await expect(page.getByTestId('spend-cap-saved')).toContainText('applies now');
  await expect(page.getByTestId('spend-cap-current')).toContainText('20 credits per day');
  await page.getByTestId('spend-cap-credits').fill('80');
  await page.getByTestId('spend-cap-save').click();
  await expect(page.getByTestId('spend-cap-confirm')).toContainText('24 hours');
  await shot('records-11-spend-cap-prompt');
  await page.getByTestId('spend-cap-confirm-button').click();
  await expect(page.getByTestId('spend-cap-confirm')).toBeHidden();
  await expect(page.getByTestId('spend-cap-pending')).toContainText('80 credits per day');
  await expect(page.getByTestId('spend-cap-current')).toContainText('20 credits per day');
  await reveal(page, 'transactions');
  await shot('records-12-transactions');
  await reveal(page, 'spend-cap');
  await shot('records-12b-spend-cap');

  await page.getByTestId('order-row').filter({ hasText: 'Paid' }).click();
  await expect(page).toHaveURL(`/transactions/${paid.id}`);
  await expect(page.getByTestId('order-detail')).toContainText('On ');
  const invoice = page.getByTestId('download-invoice');
  await expect(invoice).toHaveAttribute('href', `/api/invoice.php?id=${paid.id}`);
  const pdf = await page.request.get(`/api/invoice.php?id=${paid.id}`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect(pdf.headers()['content-disposition']).toMatch(/^attachment;/);
  await reveal(page, 'order-detail');
  await shot('records-13-order-detail');
});

test('a paid member low on credits sees the credits badge: warning at 10 or fewer, danger at 0', async ({ page, shot }, info) => {
  await member(page, 'badge', info.project.name);
  await placeOrder(page, 'ideal', 'paid');
  const profiles = await demoMembers(page.request);
  const balance = async () => ((await (await page.request.get('/api/user.php')).json()) as { user: { credits: number } }).user.credits;
  const send = (to: number, text: string) => page.request.post('/api/messages.php', {
    data: { profile_id: to, text }, headers: { 'idempotency-key': `badge-${to}-${text.length}-${Date.now()}` },
  });
  // Members other tests just made have not confirmed their address and cannot be written to yet.
  let to = 0;
  for (const p of profiles) {
    if ((await send(p.id, 'Hello there')).status() === 201) {
      to = p.id;
      break;
    }
  }
  expect(to).toBeGreaterThan(0);
  const spendDownTo = async (most: number) => {
    for (let i = 0; i < 20 && (await balance()) > most; i++) {
      const sent = await send(to, `Hello, message ${i}`);
      expect(sent.status(), await sent.text()).toBe(201);
    }
  };
  await page.goto('/members');
  await expect(page.getByTestId('nav-credits')).toBeAttached();
  await expect(page.getByTestId('credits-badge')).toHaveCount(0);

  await spendDownTo(10);
  const low = await balance();
  expect(low).toBeGreaterThan(0);
  await page.goto('/members');
  await expect(page.getByTestId('credits-badge')).toHaveText(String(low));
  await expect(page.getByTestId('credits-badge')).toHaveClass(/bg-warning/);
  // On phones the tab bar's credits item carries it.
  await shot('records-12-credits-badge-low');

  await spendDownTo(0);
  await page.goto('/members');
  await expect(page.getByTestId('credits-badge')).toHaveText('0');
  await expect(page.getByTestId('credits-badge')).toHaveClass(/bg-danger/);
});

test('transactions in a second currency: a member in Poland pays in złoty and reads the amounts the Polish way', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  const res = await page.request.post('/api/signup.php', {
    headers,
    data: {
      email: `zloty.${info.project.name}.${Date.now()}@example.org`, name: 'Ola', password: 'first password',
      date_of_birth: '1991-04-04', gender: 'female', country: 'PL',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  expect((await page.request.put('/api/user.php', { data: { language: 'pl' } })).status()).toBe(200);
  const paid = await placeOrder(page, 'blik', 'paid');
  const { orders } = (await (await page.request.get('/api/orders.php')).json()) as { orders: { id: string; amount: number; currency: string }[] };
  const order = orders.find((o) => o.id === paid.id)!;
  expect(order.currency).toBe('PLN');
  const zloty = new Intl.NumberFormat('pl', { style: 'currency', currency: 'PLN' }).format(order.amount / 100);
  expect(zloty).toMatch(/^\d+,\d\d\szł$/);
  await page.goto('/transactions');
  await hydrated(page);
  await expect(page.getByTestId('order-row')).toHaveCount(1);
  await expect(page.getByTestId('order-row').first()).toContainText(zloty);
  await expect(page.getByTestId('order-row').first()).not.toContainText('€');
  await reveal(page, 'transactions');
  await shot('records-16-transactions-pln');
  await page.getByTestId('order-row').first().click();
  await expect(page).toHaveURL(`/transactions/${paid.id}`);
  await expect(page.getByTestId('order-detail')).toContainText(zloty);
});
