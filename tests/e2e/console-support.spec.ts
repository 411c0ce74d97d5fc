import type { Browser } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { asStaff } from './console-staff.ts';
import { activate, demoMembers, newMember, paidOrder } from './account-helpers.ts';

/**
 * The console's member support and flagged-members queue, as staff use them: the browser tests' admin of every site
 * (tests/e2e/global-setup.ts) acts through its staff API token, which the console accepts as it accepts a session.
 */

/** A member who sends a message with a phone number in it: the automatic flag's evidence. */
async function flaggedMember(browser: Browser, project: string) {
  const sender = await newMember(browser, 'flagged', project);
  const [target] = await demoMembers(sender.page.request);
  const sent = await sender.page.request.post('/api/messages.php', {
    data: { profile_id: target.id, text: 'Text me on WhatsApp: 0612345678' }, headers: { 'idempotency-key': `console-flag-${Date.now()}-key` },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  return sender;
}

test('a moderator works the flagged-members queue: evidence on request, then closed; support opens the member and adjusts credits after confirming', async ({ browser, page, shot }, info) => {
  const sender = await flaggedMember(browser, info.project.name);
  await asStaff(page);

  // The flag arrives once the outbox has read the message.
  await expect.poll(async () => {
    await page.goto('/console/flags');
    return page.getByTestId('flag-row').filter({ hasText: `#${sender.id}` }).count();
  }).toBe(1);
  await expect(page.getByTestId('console-nav-flags')).toContainText(/\d/);
  await shot('console-flags');
  const row = page.getByTestId('flag-row').filter({ hasText: `#${sender.id}` });
  await expect(row).toContainText('Contact off the site');
  // Newest first is the server's order, kept in the address and by the evidence's link.
  await page.getByTestId('flag-sort-newest').click();
  await expect(page).toHaveURL(/\?sort=newest$/);
  await expect(page.getByTestId('flag-sort-newest')).toHaveAttribute('aria-current', 'page');
  await row.getByTestId('flag-open').click();
  await expect(page).toHaveURL(new RegExp(`\\?sort=newest&open=\\d+$`));
  const evidence = page.getByTestId('flag-evidence');
  await expect(evidence).toContainText('0612345678');
  await expect(evidence).toContainText('Text me on WhatsApp');
  await evidence.getByTestId('flag-resolve').click();
  await expect(page.getByTestId('flag-resolved')).toBeVisible();
  await expect(page.getByTestId('flag-row').filter({ hasText: `#${sender.id}` })).toHaveCount(0);

  // Member support: find by id, open, adjust credits with a confirmation step.
  await page.getByTestId('console-nav-members').click();
  await page.getByLabel('Member id, e-mail, name or payment reference').fill(String(sender.id));
  await page.getByTestId('member-search-submit').click();
  await expect(page.getByTestId('member-result')).toHaveCount(1);
  await page.getByTestId('member-result').getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`#${sender.id}`);
  await expect(page.getByTestId('member-activity')).toContainText('1 in all; messages sent: 1');
  await shot('console-member');
  const balance = Number((await (await sender.page.request.get('/api/user.php')).json()).user.credits);
  const actions = page.getByTestId('member-actions');
  await actions.getByLabel('Credits (+ adds, − takes back)').fill('15');
  await actions.getByLabel('Reason').fill('Goodwill after a slow payment');
  await page.getByTestId('action-adjust_credits').click();
  const confirm = page.getByTestId('confirm-adjust_credits');
  await expect(confirm).toContainText('15 credits');
  await expect(confirm).toContainText('Goodwill after a slow payment');
  // Nothing is booked before the confirmation.
  expect(Number((await (await sender.page.request.get('/api/user.php')).json()).user.credits)).toBe(balance);
  await page.getByTestId('confirm-adjust_credits-yes').click();
  await expect(page.getByTestId('member-action-done')).toContainText(`The balance is now ${balance + 15}`);
  await expect(page.getByTestId('member-ledger-table')).toContainText('Adjusted by customer service');
  expect(Number((await (await sender.page.request.get('/api/user.php')).json()).user.credits)).toBe(balance + 15);
  // The member sees the correction in their own credit history.
  expect(JSON.stringify(await (await sender.page.request.get('/api/credit-ledger.php')).json())).toContain('adjustment');

  // A ban, confirmed, signs the member out and sends a statement of reasons; lifting it lists the profile again.
  await page.getByLabel('Why').selectOption('abuse');
  await page.locator('#ban-facts').fill('Insulted several members');
  await page.getByTestId('action-ban').click();
  await expect(page.getByTestId('confirm-ban')).toContainText('Abuse');
  await page.getByTestId('confirm-ban-yes').click();
  await expect(page.getByTestId('member-action-done')).toContainText('banned');
  await expect(page.getByTestId('member-moderation')).toContainText('Insulted several members');
  expect((await sender.page.request.get('/api/user.php')).status()).toBe(403);
  await page.getByTestId('member-moderation').locator('#unban-reason').fill('Decided again after a call');
  await page.getByTestId('action-unban').click();
  await page.getByTestId('confirm-unban-yes').click();
  await expect(page.getByTestId('member-action-done')).toContainText('The ban is lifted.');
  await expect(page.getByTestId('member-moderation')).toContainText('None');
  await sender.close();
});

test('finance refunds part of an order from the member\'s page after a confirmation that names the part, then the member sees it', async ({ browser, page, shot }, info) => {
  const member = await newMember(browser, 'refund', info.project.name);
  const order = await paidOrder(member.page, `console-refund-${Date.now()}-key`);
  const money = (cents: number) => new Intl.NumberFormat('en', { style: 'currency', currency: order.currency }).format(cents / 100);
  await asStaff(page);
  await page.goto(`/console/members/${member.id}`);
  const orders = page.getByTestId('member-orders');
  // All that is left is the default: the whole order at first.
  await expect(orders.getByTestId('refund-left')).toHaveText(`Left to refund: ${money(order.amount)} of ${money(order.amount)}`);
  await orders.getByLabel(`Amount (${order.currency})`).fill('2');
  await orders.getByLabel('Reason').fill('Bought the bundle twice by mistake');
  await orders.scrollIntoViewIfNeeded();
  await shot('console-member-refund-form');
  await page.getByTestId('action-refund').click();
  const confirm = page.getByTestId('confirm-refund');
  await expect(confirm).toContainText(`Refund ${money(200)} of ${money(order.amount)} on order ${order.id}`);
  await expect(confirm).toContainText(/\d+ credits are taken back\./);
  await shot('console-member-refund');
  await page.getByTestId('confirm-refund-yes').click();
  await expect(page.getByTestId('member-action-done')).toContainText(`${money(200)} refunded;`);
  await expect(orders.getByRole('table')).toContainText(`${money(200)} refunded`);
  await expect(orders.getByTestId('refund-left')).toHaveText(`Left to refund: ${money(order.amount - 200)} of ${money(order.amount)}`);
  // The member's own records show the part.
  await member.page.goto(`/transactions/${order.id}`);
  await expect(member.page.getByTestId('order-status')).toHaveText('Partly refunded');
  await expect(member.page.getByTestId('order-refunded')).toContainText(`${money(200)} of ${money(order.amount)} has been refunded to you.`);
  await member.close();
});

test('the flagged-members queue and a member\'s page fit a phone', async ({ browser, page, shot }, info) => {
  const sender = await flaggedMember(browser, info.project.name);
  await asStaff(page, { width: 375, height: 812 });
  await expect.poll(async () => {
    await page.goto('/console/flags');
    return page.getByTestId('flag-row').filter({ hasText: `#${sender.id}` }).count();
  }).toBe(1);
  await shot('console-flags-phone');
  // Nothing reaches past the screen's edge (a wide table scrolls inside its own box).
  const fits = () => page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((e) => !e.closest('.table-responsive') && e.getBoundingClientRect().right > window.innerWidth + 1)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className}`));
  expect(await fits()).toEqual([]);
  await page.goto(`/console/members/${sender.id}`);
  await expect(page.getByTestId('member-account')).toBeVisible();
  expect(await fits()).toEqual([]);
  await shot('console-member-phone');
  await sender.close();
});

test('support opens a conversation from the member\'s page only where a message of it was reported', async ({ browser, page, shot }, info) => {
  const sender = await newMember(browser, 'conv-sender', info.project.name);
  const receiver = await newMember(browser, 'conv-receiver', info.project.name);
  const { email } = ((await (await receiver.page.request.get('/api/user.php')).json()) as { user: { email: string } }).user;
  await activate(receiver.page, email);
  const sent = await sender.page.request.post('/api/messages.php', {
    data: { profile_id: receiver.id, text: 'Send me your card number, quickly' }, headers: { 'idempotency-key': `console-conv-${Date.now()}-key` },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const messageId = ((await sent.json()) as { message: { id: number } }).message.id;
  const made = await receiver.page.request.post('/api/report.php', { data: { profile_id: sender.id, kind: 'message', content_id: messageId, reason: 'scam' } });
  expect(made.status(), await made.text()).toBe(201);

  await asStaff(page);
  await page.goto(`/console/members/${sender.id}`);
  await page.getByTestId('member-activity').getByTestId('read-conversation').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reported conversation');
  await expect(page.getByTestId('conversation-reported-message')).toContainText('Send me your card number, quickly');
  await expect(page.getByTestId('conversation-reports')).toContainText('Scam');
  await shot('console-conversation');
  await sender.close();
  await receiver.close();
});
