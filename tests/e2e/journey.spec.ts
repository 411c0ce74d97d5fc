import { acceptEntryWarning, expect, openNav, openSearchFilters, test } from './fixtures.ts';

/**
 * The core journey: a visitor signs up, searches, opens a profile, likes it, chats, runs out of
 * credits, buys a bundle through the test checkout, sends the message and is premium.
 */
test('sign up, search, like, chat, buy credits and become premium', { tag: '@phone' }, async ({ page, shot }, info) => {
  // The whole journey in one test (the credits page now also asks for the withdrawal consent): on a
  // loaded machine it runs close to the default 60 s.
  test.setTimeout(120_000);
  const email = `journey.${info.project.name}.${Date.now()}@example.org`;

  await page.goto('/');
  await acceptEntryWarning(page);
  await shot('01-index');
  await page.getByTestId('cta-signup').click();
  // Smartphones get the sign-up page, larger screens the sign-up modal.
  if (info.project.name === 'mobile') await expect(page).toHaveURL(/\/signup$/);
  else await expect(page.getByTestId('signup-modal')).toBeVisible();

  // A broken form is refused with translated messages and nothing is created.
  await page.locator('#signup-email').fill(email);
  await page.locator('#signup-name').fill('@journey');
  await page.locator('#signup-password').fill('journey-password');
  await page.locator('#signup-dob').fill('2015-05-05');
  await page.locator('#signup-gender').selectOption('male');
  await page.locator('#signup-country').selectOption('NL');
  await page.getByTestId('signup-submit').click();
  await expect(page.getByText('Your name cannot start with @.')).toBeVisible();
  await expect(page.getByText('You must be at least 18 years old to sign up.')).toBeVisible();
  await shot('02-signup-errors');

  await page.locator('#signup-name').fill('Journey');
  await page.locator('#signup-dob').fill('1990-05-05');
  await page.getByTestId('signup-submit').click();
  // The optional steps (photo, about me, push) are skipped; the last one confirms the e-mail address.
  const flow = page.getByTestId('signup-flow');
  for (const step of ['photo', 'looking', 'location', 'about', 'push']) {
    await expect(flow).toHaveAttribute('data-step', step);
    await page.getByTestId('signup-skip').click();
  }
  await expect(flow).toHaveAttribute('data-step', 'complete');
  await page.getByTestId('signup-finish').click();
  await expect(page).toHaveURL(/\/members(\?signup-complete=1)?$/);
  if (info.project.name === 'mobile') await page.getByTestId('activation-modal').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('nav-premium')).toBeAttached();

  // Search: filters, then paging appends results.
  await openSearchFilters(page);
  await page.locator('#search-gender').selectOption('female');
  // Other browser tests sign up members aged 36–41 who never confirm their address (and so cannot be
  // written to); in a full run they are the newest, so the journey searches where only demo profiles are.
  await page.locator('#search-min-age').selectOption('50');
  await page.locator('#search-max-age').selectOption('99');
  await page.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/gender=female/);
  const cards = page.getByTestId('profile-card');
  await expect(cards).toHaveCount(24);
  // Locally the test-mode banner is for the payment pages only.
  await expect(page.getByTestId('test-payments-banner')).toHaveCount(0);
  await page.getByTestId('load-more').click();
  // The next page is appended (the demo site has fewer than 48 such profiles, so it is the last).
  await expect.poll(() => cards.count()).toBeGreaterThan(24);
  await expect(page.getByTestId('load-more')).toHaveCount(0);
  await shot('03-search');

  // The card with the lowest id: the oldest demo profile among them.
  const ids = (await cards.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).map((href) => Number(href?.split('/').pop()));
  const demoId = Math.min(...ids);
  await page.locator(`[data-testid="profile-card"][href="/members/${demoId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/members/${demoId}$`));
  const profileUrl = page.url();
  await expect(page.getByTestId('profile-name')).toBeVisible();
  await page.getByTestId('like-button').click();
  await expect(page.getByTestId('like-button')).toHaveText('Unlike');
  await shot('04-profile-liked');

  // Chat: a new member's first messages are free (3 on the demo site); then a message needs credits,
  // and one that cannot be paid for is refused and not sent.
  await page.getByTestId('message-button').click();
  await expect(page).toHaveURL(/\/members\/\d+\/chat$/);
  // A new conversation offers openers; the member writes their own.
  await expect(page.getByTestId('icebreaker')).toBeVisible();
  await expect(page.getByTestId('icebreaker-suggestion')).toHaveCount(3);
  await page.getByTestId('icebreaker-own').click();
  await expect(page.getByTestId('free-left')).toHaveText('This message is free (3 free messages left).');
  await expect(page.getByTestId('message-cost')).toHaveText('Free');
  const firstMessages = ['Hi! I liked your profile.', 'How is your week going?', 'Shall we talk more?'];
  for (const [i, text] of firstMessages.entries()) {
    await page.getByTestId('message-input').fill(text);
    await page.getByTestId('send-button').click();
    await expect(page.getByTestId('message')).toHaveCount(i + 1);
  }
  // From now on the button shows what a message costs, in credits and in money.
  await expect(page.getByTestId('message-cost')).toHaveText(/^5 credits · €\d+\.\d{2}$/);
  await page.getByTestId('message-input').fill('Are you there?');
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('send-error')).toHaveAttribute('data-code', 'insufficient_credits');
  await expect(page.getByTestId('message')).toHaveCount(3);
  await shot('05-insufficient-credits');
  // A gift without the credits for it: the confirmation closes, so the same alert is in sight instead of behind it.
  await page.getByTestId('open-gifts').click();
  await page.locator('[data-testid="gift-choice"][data-slug="rose"]').click();
  await expect(page.getByTestId('gift-picker')).toBeHidden();
  await page.getByTestId('confirm-send-button').click();
  await expect(page.getByTestId('confirm-send')).toBeHidden();
  await expect(page.getByTestId('send-error')).toHaveAttribute('data-code', 'insufficient_credits');
  await expect(page.getByTestId('send-error')).toBeInViewport();
  await expect(page.getByTestId('message')).toHaveCount(3);

  await page.getByTestId('buy-credits').click();
  // The link asks for the bundle that covers the message (the smallest), and the credits page marks it; after the
  // purchase the member is brought back to the conversation.
  await expect(page).toHaveURL(/\/credits\?need=\d+&return=%2Fmembers%2F\d+%2Fchat$/);
  await expect(page.getByTestId('package-highlight')).toBeVisible();
  // The test provider is in use (localhost): the payment pages say that no money is charged.
  await expect(page.getByTestId('test-payments-banner')).toContainText('no money is charged');
  await shot('06-credits');
  // No order without the withdrawal consent.
  await page.getByTestId('buy-package').first().click();
  await expect(page.getByText('lose your right of withdrawal').last()).toBeVisible();
  await page.getByTestId('withdrawal-consent').check();
  await page.getByTestId('buy-package').first().click();
  await expect(page.getByTestId('test-checkout')).toBeVisible();
  await expect(page.getByText('TEST MODE').first()).toBeVisible();
  await expect(page.getByTestId('test-payments-banner')).toBeVisible();
  await shot('07-test-checkout');
  await page.getByTestId('outcome-paid').click();

  await expect(page.getByTestId('payment-completed')).toBeVisible();
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('test-payments-banner')).toBeVisible();
  await shot('08-payment-completed');

  // Reloading the return page does not credit twice.
  await page.reload();
  await expect(page.getByTestId('payment-completed')).toBeVisible();

  // Continue leads back to the conversation the member came from.
  await page.getByTestId('continue').click();
  await expect(page).toHaveURL(new RegExp(`${new URL(profileUrl).pathname}/chat$`));
  await page.getByTestId('message-input').fill('Are you there?');
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('message')).toHaveCount(4);
  await expect(page.getByTestId('message').last()).toContainText('Are you there?');
  await shot('09-message-sent');

  // The chat's bar shows the balance: 50 - 5 = 45 credits left.
  await expect(page.getByTestId('nav-credits')).toHaveText('45 credits');
  // Premium now: the credits item replaces Get Premium.
  await page.goto('/credits/repeat-order');
  await expect(page.getByTestId('nav-premium')).toHaveCount(0);
  await expect(page.getByTestId('nav-credits')).toBeAttached();
  await expect(page.getByTestId('credit-balance')).toHaveText('You have 45 credits.');
  await openNav(page, 'nav-chats');
  await expect(page).toHaveURL(/\/chats$/);
  await expect(page.getByTestId('chat-item')).toHaveCount(1);
  await shot('10-chats');
});
