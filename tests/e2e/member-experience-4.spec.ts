import type { Browser, Page } from '@playwright/test';
import {
  activate, asNewVisitor, demoMembers, fillDirectDebitDetails, latestSmsCode, newMember, newMobile, paidOrder, signUpByApi,
} from './account-helpers.ts';
import { expect, expectSkipLinkFirst, hydrated, openSearchFilters, test } from './fixtures.ts';

/** A new, confirmed member of their own (in `page`) with a conversation with a demo member; answers its id. */
async function memberWithConversation(page: Page, prefix: string, project: string, opts: { spendFree: boolean }) {
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, prefix, project);
  await activate(page, email);
  const [other] = await demoMembers(page.request);
  // The first messages are free (3 on the demo site): spent, the next one needs credits the member does not have.
  for (let i = 0; i < (opts.spendFree ? 3 : 1); i++) {
    const sent = await page.request.post('/api/messages.php', {
      data: { profile_id: other.id, text: `Hello number ${i + 1}` }, headers: { 'idempotency-key': `${prefix}-${i}-${Date.now()}` },
    });
    expect(sent.status(), await sent.text()).toBe(201);
  }
  const { chats } = (await (await page.request.get('/api/chats.php')).json()) as { chats: { conversation: { id: number } }[] };
  return chats[0].conversation.id;
}

test('buying credits from a conversation returns to it after paying, with the typed reply still in the composer', async ({ page }, info) => {
  const conversation = await memberWithConversation(page, 'buyback', info.project.name, { spendFree: true });
  await page.goto(`/chats/${conversation}`);
  const reply = 'I would love to meet you at the harbour on Sunday';
  await page.getByTestId('message-input').fill(reply);
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('send-error')).toHaveAttribute('data-code', 'insufficient_credits');
  await expect(page.getByTestId('message-input')).toHaveValue(reply);

  await page.getByTestId('buy-credits').click();
  await expect(page).toHaveURL(new RegExp(`/credits\\?need=\\d+&return=%2Fchats%2F${conversation}$`));
  await page.getByTestId('withdrawal-consent').check();
  await page.getByTestId('buy-package').first().click();
  await expect(page.getByTestId('test-checkout')).toBeVisible();
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-completed')).toBeVisible();

  await page.getByTestId('continue').click();
  await expect(page).toHaveURL(new RegExp(`/chats/${conversation}$`));
  await expect(page.getByTestId('message-input')).toHaveValue(reply);
  // Now it can be sent; a sent reply is no longer a draft.
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('message').last()).toContainText(reply);
  await expect(page.getByTestId('message-input')).toHaveValue('');
  await page.reload();
  await expect(page.getByTestId('message-input')).toHaveValue('');
});

test('paying by direct debit from a conversation also returns to it after paying, with the typed reply still in the composer', async ({ page }, info) => {
  const conversation = await memberWithConversation(page, 'ddback', info.project.name, { spendFree: true });
  const back = `return=%2Fchats%2F${conversation}`;
  await page.goto(`/chats/${conversation}`);
  const reply = 'Shall we have a coffee at the station first?';
  await page.getByTestId('message-input').fill(reply);
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('send-error')).toHaveAttribute('data-code', 'insufficient_credits');
  await page.getByTestId('buy-credits').click();
  await expect(page).toHaveURL(new RegExp(`/credits\\?need=\\d+&${back}$`));

  // The direct-debit form carries the way back through both of its steps (details, then the SMS code).
  await page.getByTestId('pay-direct-debit').first().click();
  await expect(page).toHaveURL(new RegExp(`/directdebit\\?package=\\d+&${back}$`));
  await hydrated(page);
  const mobile = newMobile();
  await fillDirectDebitDetails(page, { iban: 'NL91 ABNA 0417 1643 00', mobile });
  const sentAfter = Date.now() - 1000;
  await page.getByTestId('dd-send-code').click();
  await expect(page.getByTestId('dd-code-step')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`request=dd_.*${back}|${back}.*request=dd_`));
  await expect(page.getByTestId('dd-other-method')).toHaveAttribute('href', new RegExp(`/credits\\?package=\\d+&${back}$`));
  const code = await latestSmsCode(page.request, mobile, sentAfter);
  await hydrated(page);
  await page.getByTestId('dd-code').fill(code);
  await page.getByTestId('dd-confirm').click();

  // Pending until the bank settles it (the test checkout here), and from there back to the status page and on.
  await expect(page).toHaveURL(new RegExp(`/credits/ord_[\\w-]+\\?${back}$`));
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'pending');
  await page.getByTestId('finish-payment').click();
  await expect(page.getByTestId('test-checkout')).toBeVisible();
  await hydrated(page);
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-completed')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/credits/ord_[\\w-]+\\?${back}$`));
  await page.getByTestId('continue').click();
  await expect(page).toHaveURL(new RegExp(`/chats/${conversation}$`));
  await expect(page.getByTestId('message-input')).toHaveValue(reply);
});

test('the chat bar\'s credits item leads back to the conversation after paying: from the credits page, and from repeat order', async ({ page }, info) => {
  const conversation = await memberWithConversation(page, 'barback', info.project.name, { spendFree: false });
  const back = `return=%2Fchats%2F${conversation}`;
  await page.goto(`/chats/${conversation}`);
  const bar = page.getByTestId('chat-bar');
  await expect(bar.getByTestId('nav-credits')).toHaveAttribute('href', `/credits?${back}`);
  await bar.getByTestId('nav-credits').click();
  await expect(page).toHaveURL(new RegExp(`/credits\\?${back}$`));
  await hydrated(page);
  // The first purchase keeps the method, so the item leads to repeat order afterwards.
  await page.getByTestId('keep-method').check();
  await page.getByTestId('withdrawal-consent').check();
  await page.getByTestId('buy-package').first().click();
  await expect(page.getByTestId('test-checkout')).toBeVisible();
  await hydrated(page);
  await page.getByTestId('outcome-paid').click();
  await expect(page.getByTestId('payment-completed')).toBeVisible();
  await page.getByTestId('continue').click();
  await expect(page).toHaveURL(new RegExp(`/chats/${conversation}$`));

  // Paid, with a stored method: repeat order, one click, and Continue leads back again.
  await expect(bar.getByTestId('nav-credits')).toHaveAttribute('href', `/credits/repeat-order?${back}`);
  await bar.getByTestId('nav-credits').click();
  await expect(page).toHaveURL(new RegExp(`/credits/repeat-order\\?${back}$`));
  await expect(page.getByTestId('other-method')).toHaveAttribute('href', `/credits?${back}`);
  await hydrated(page);
  await page.getByTestId('withdrawal-consent').check();
  await page.getByTestId('repeat-buy').first().click();
  await expect(page).toHaveURL(new RegExp(`/credits/ord_[\\w-]+\\?${back}$`));
  await expect(page.getByTestId('payment-completed')).toBeVisible();
  await page.getByTestId('continue').click();
  await expect(page).toHaveURL(new RegExp(`/chats/${conversation}$`));
  await expect(page.getByTestId('message-input')).toBeVisible();
});

test('the way back after paying is a path on this site only: another host or a scheme is refused', async ({ page }, info) => {
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, 'return-path', info.project.name);
  await activate(page, email);
  const { packages } = (await (await page.request.get('/api/packages.php')).json()) as { packages: { id: number }[] };
  for (const [i, bad] of ['//evil.example/chats/1', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', 'chats/1'].entries()) {
    const placed = await page.request.post('/api/order.php', {
      data: { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true, return_to: bad }, headers: { 'idempotency-key': `bad-return-${i}-${Date.now()}` },
    });
    expect(placed.status(), bad).toBe(400);
    expect(((await placed.json()) as { error: { code: string } }).error.code).toBe('return_path_invalid');
  }
  const { orders } = (await (await page.request.get('/api/orders.php')).json()) as { orders: unknown[] };
  expect(orders).toHaveLength(0);

  // A return path slipped into the status page's address by hand is ignored: Continue goes to the members.
  const order = await paidOrder(page, `return-path-${Date.now()}`);
  await page.goto(`/credits/${order.id}?return=${encodeURIComponent('//evil.example/')}`);
  await expect(page.getByTestId('continue')).toHaveAttribute('href', '/members');
  await page.goto(`/credits/${order.id}?return=${encodeURIComponent('/chats/5')}`);
  await expect(page.getByTestId('continue')).toHaveAttribute('href', '/chats/5');
});

/** A new member (in `page`) who got a first message from another member (so it has a report flag); answers the conversation. */
async function memberWrittenTo(page: Page, browser: Browser, prefix: string, project: string) {
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, prefix, project);
  await activate(page, email);
  const me = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
  const writer = await newMember(browser, `${prefix}-writer`, project);
  await paidOrder(writer.page, `${prefix}-writer-order-${Date.now()}`);
  const sent = await writer.page.request.post('/api/messages.php', {
    data: { profile_id: me, text: 'Hello there, how was your day?' }, headers: { 'idempotency-key': `${prefix}-writer-${Date.now()}` },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  await writer.close();
  const { chats } = (await (await page.request.get('/api/chats.php')).json()) as { chats: { conversation: { id: number } }[] };
  return chats[0].conversation.id;
}

/** The loading bar is gone (or finished and fading out) soon after the page is done. */
async function expectBarDone(page: Page) {
  await expect.poll(async () => page.getByTestId('loading-bar').evaluateAll((bars) => bars.every((bar) => (bar as HTMLElement).style.width === '100%')), { timeout: 2_500 }).toBe(true);
  await expect(page.getByTestId('loading-bar')).toHaveCount(0, { timeout: 2_500 });
}

test('the loading bar finishes after a filter search, a like and opening a chat', async ({ page }, info) => {
  const conversation = await memberWithConversation(page, 'loadingbar', info.project.name, { spendFree: false });
  // Slow answers, so that the bar shows at all (it waits 200 ms before it appears).
  await page.route(/\/api\/(members|like|chats|messages)\.php|\.data(\?|$)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.fallback();
  });

  await page.goto('/members');
  await openSearchFilters(page);
  await page.locator('#search-min-age').selectOption('30');
  await page.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/min_age=30/);
  await expect(page.getByTestId('profile-card').first()).toBeVisible();
  await expectBarDone(page);

  await page.getByTestId('profile-card').first().click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  await expectBarDone(page);
  await page.getByTestId('like-button').click();
  await expect(page.getByTestId('like-button')).toHaveText('Unlike');
  await expectBarDone(page);

  await page.goto('/chats');
  await page.locator(`a[href="/chats/${conversation}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`/chats/${conversation}$`));
  await expect(page.getByTestId('message-input')).toBeVisible();
  await expectBarDone(page);

  // An answer that never comes (a lost connection): the bar does not stay at 90 % for minutes, it finishes.
  await page.goto('/members');
  await page.route(/\/members\.data\?.*min_age=40/, () => undefined);
  await openSearchFilters(page);
  await page.locator('#search-min-age').selectOption('40');
  await page.getByTestId('search-submit').click();
  await expect(page.getByTestId('loading-bar')).toBeVisible();
  await expect(page.getByTestId('loading-bar')).toHaveCount(0, { timeout: 12_000 });
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

/** Every visible control that is not a link inside a sentence: buttons, links shown as buttons, checkboxes and switches. */
async function smallTargets(page: Page) {
  return page.evaluate(() => {
    const controls = document.querySelectorAll<HTMLElement>('button, [role="button"], a.btn, input[type="checkbox"], input[type="radio"], [role="switch"], select');
    // A link that is only an icon (the report flag) is no link inside a sentence: it counts too.
    const iconLinks = [...document.querySelectorAll<HTMLElement>('a[href]')].filter((a) => !a.textContent?.trim());
    const small: string[] = [];
    for (const el of [...controls, ...iconLinks]) {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || el.closest('[aria-hidden="true"], .visually-hidden, .visually-hidden-focusable')) continue;
      if (box.width < 24 || box.height < 24) {
        small.push(`${el.tagName.toLowerCase()}[${el.dataset.testid ?? el.id ?? el.className}] ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
    return small;
  });
}

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('every control on the member pages is a target of at least 24 by 24 px, and the chat starts with a skip link', async ({ page, browser, shot }, info) => {
    const conversation = await memberWrittenTo(page, browser, 'targets', info.project.name);

    await page.goto('/members');
    expect(await smallTargets(page), '/members').toEqual([]);
    await openSearchFilters(page);
    expect(await smallTargets(page), '/members with filters').toEqual([]);

    await page.getByTestId('profile-card').first().click();
    await expect(page).toHaveURL(/\/members\/\d+$/);
    expect(await smallTargets(page), 'a profile').toEqual([]);

    await page.goto(`/chats/${conversation}`);
    await expect(page.getByTestId('message').first()).toBeVisible();
    expect(await smallTargets(page), 'a conversation').toEqual([]);

    await expect(page.getByTestId('report-message').first()).toBeVisible();
    await shot('targets-conversation');
    await page.goto('/profile');
    expect(await smallTargets(page), '/profile').toEqual([]);
    await page.goto('/notifications');
    await expect(page.locator('.form-switch input').first()).toBeVisible();
    expect(await smallTargets(page), '/notifications').toEqual([]);
    await shot('targets-notifications');

    // The keyboard in a conversation: the skip link comes first and leads to the conversation.
    await page.goto(`/chats/${conversation}`);
    await expectSkipLinkFirst(page);
    await shot('targets-conversation-skipped');
  });
});
