import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures.ts';
import { activate, asNewVisitor, demoMembers, latestMail, linkIn, signUpByApi } from './account-helpers.ts';

/**
 * Members report from where it happens (a profile, a chat message) through the report sheet, and follow their reports;
 * a member whose photo was removed opens the statement of reasons from the mail's link and appeals (DSA Art. 16, 17,
 * 20). The moderators' rules (claims, decisions, appeals by another moderator) are covered by
 * server/moderation/reports.test.ts.
 */

/** The e2e staff member's API token (tests/e2e/global-setup.ts): a moderator of every site. */
const STAFF_TOKEN = process.env.E2E_STAFF_TOKEN;
const idOf = async (page: Page) => ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;

async function buyCredits(page: Page) {
  const { packages } = (await (await page.request.get('/api/packages.php')).json()) as { packages: { id: number }[] };
  const order = await page.request.post('/api/order.php', {
    data: { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, headers: { 'idempotency-key': `reports-order-${Date.now()}` },
  });
  expect(order.status(), await order.text()).toBeLessThan(300);
  const { order: placed } = (await order.json()) as { order: { payment_id: string } };
  expect((await page.request.post('/api/test-checkout.php', { data: { id: placed.payment_id, outcome: 'paid' } })).status()).toBe(200);
}

test('a member reports a profile from its page and blocks it, then follows the report', { tag: '@phone' }, async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'reports-profile', info.project.name);
  const profileId = (await demoMembers(page.request)).find((p) => p.main_image)?.id;
  expect(profileId).toBeDefined();
  await page.goto(`/members/${profileId}`);
  // Without JavaScript the link leads to the same form as a page.
  await expect(page.getByTestId('report-profile')).toHaveAttribute('href', `/report?profile=${profileId}&kind=profile`);
  await page.getByTestId('report-profile').click();
  const sheet = page.getByTestId('report-sheet');
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('heading')).toContainText('Report');

  // Sent without a reason: the reason is asked for beside its field, and nothing is sent.
  await page.getByTestId('report-submit').click();
  await expect(sheet.getByText('Choose a reason.')).toBeVisible();
  await page.getByTestId('report-reason').selectOption('fake');
  await page.getByTestId('report-text').fill('The photos are of a model from an advertisement.');
  await page.getByTestId('report-block').check();
  await shot('report-sheet');
  await page.getByTestId('report-submit').click();
  await expect(page.getByTestId('report-done')).toContainText('Thank you, we have received your report');
  await expect(page.getByTestId('report-blocked')).toBeVisible();
  await shot('report-sent');
  await page.getByTestId('report-close').click();
  await expect(sheet).toBeHidden();

  // The block took effect, and the report is on the member's own list.
  const { profiles } = (await (await page.request.get('/api/block.php')).json()) as { profiles: { id: number }[] };
  expect(profiles.map((p) => p.id)).toContain(profileId);
  await page.goto('/reports');
  await expect(page.getByTestId('report-item')).toHaveCount(1);
  await expect(page.getByTestId('report-item')).toHaveAttribute('data-status', 'open');
  await expect(page.getByTestId('report-status')).toHaveText('Under review');
  await shot('my-reports');
});

test('a member reports a message from the chat', async ({ page, browser, shot }, info) => {
  // A writes to B…
  const aContext = await browser.newContext();
  const a = await aContext.newPage();
  const aHeaders = await asNewVisitor(a);
  const { email: aEmail } = await signUpByApi(a, aHeaders, 'reports-a', info.project.name);
  await activate(a, aEmail);
  await buyCredits(a);
  const aId = await idOf(a);

  const headers = await asNewVisitor(page);
  const { email: bEmail } = await signUpByApi(page, headers, 'reports-b', info.project.name);
  await activate(page, bEmail);
  const bId = await idOf(page);
  const sent = await a.request.post('/api/messages.php', {
    data: { profile_id: bId, text: 'Send me your card number or else' }, headers: { ...aHeaders, 'idempotency-key': `reports-msg-${Date.now()}` },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const messageId = ((await sent.json()) as { message: { id: number } }).message.id;
  await aContext.close();

  // …B reports it from the conversation, with the keyboard.
  await page.goto(`/members/${aId}/chat`);
  await expect(page.getByTestId('report-message')).toHaveAttribute('href', `/report?profile=${aId}&kind=message&id=${messageId}`);
  await page.getByTestId('report-message').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('report-sheet')).toBeVisible();
  await page.getByTestId('report-reason').selectOption('scam');
  await shot('report-message-sheet');
  await page.getByTestId('report-submit').click();
  await expect(page.getByTestId('report-done')).toBeVisible();
  await expect(page.getByTestId('report-blocked')).toHaveCount(0);

  const { reports } = (await (await page.request.get('/api/report.php')).json()) as { reports: { kind: string; content_id: number; status: string }[] };
  expect(reports).toEqual([expect.objectContaining({ kind: 'message', content_id: messageId, status: 'open', reason: 'scam' })]);
  // Reporting it again answers the same report.
  const again = await page.request.post('/api/report.php', { data: { profile_id: aId, kind: 'message', content_id: messageId, reason: 'harassment' } });
  expect(again.status()).toBe(201);
  expect(((await again.json()) as { existing: boolean }).existing).toBe(true);
});

test('the member opens the statement of reasons from the mail and appeals', { tag: '@phone' }, async ({ page, browser, shot }, info) => {
  const memberContext = await browser.newContext();
  const member = await memberContext.newPage();
  const headers = await asNewVisitor(member);
  const { email } = await signUpByApi(member, headers, 'reports-statement', info.project.name);
  const photo = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#36c' } }).jpeg().toBuffer();
  const upload = await member.request.post('/api/photos.php', { multipart: { photo: { name: 'p.jpg', mimeType: 'image/jpeg', buffer: photo } } });
  expect(upload.status(), await upload.text()).toBe(201);
  const photoId = ((await upload.json()) as { photo: { id: number } }).photo.id;
  await memberContext.close();

  // A moderator removes the photo: the member gets the statement by mail.
  const rejected = await page.request.post('/api/moderation.php', { data: { id: photoId, action: 'reject' }, headers: { authorization: `Bearer ${STAFF_TOKEN}` } });
  expect(rejected.status()).toBe(200);
  const mail = await latestMail(page.request, email, 'statement_issued');
  expect(mail.subject).toMatch(/^A decision about your account at /);
  const link = linkIn(mail, '/statements/');

  // The link opens it without signing in; without its token it is not there.
  await asNewVisitor(page);
  expect((await page.request.get(link.replace(/\?.*$/, ''))).status()).toBe(404);
  // It speaks of one member, and its address carries the token: no cache keeps it.
  expect((await page.request.get(link)).headers()['cache-control']).toBe('private, no-store');
  await page.goto(link);
  await expect(page.getByTestId('statement-restriction')).toHaveAttribute('data-restriction', 'photo_removed');
  await expect(page.getByTestId('statement-ground')).toContainText('A photo must show you clearly');
  await expect(page.getByTestId('statement-automated')).toHaveText('No, a person on our team made this decision.');
  await expect(page.getByTestId('statement-status')).toHaveText('In force');
  await shot('statement');

  await page.getByTestId('appeal-text').fill('Too short');
  await page.getByTestId('appeal-submit').click();
  await expect(page.getByTestId('appeal-text-error')).toContainText('at least 10 characters');
  await page.getByTestId('appeal-text').fill('This is me on holiday; the photo shows my face clearly.');
  await page.getByTestId('appeal-submit').click();
  await expect(page.getByTestId('appeal-state')).toHaveAttribute('data-state', 'open');
  await expect(page.getByTestId('appeal-state')).toContainText('We are looking at your appeal.');
  await expect(page.getByTestId('appeal-form')).toHaveCount(0);
  await shot('statement-appealed');
});

test('the report page works without JavaScript', async ({ browser }, info) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'reports-nojs', info.project.name);
  const profileId = (await demoMembers(page.request)).find((p) => p.main_image)?.id;
  await page.goto(`/report?profile=${profileId}&kind=profile`);
  // Sent without a reason, the server names it; then the report goes through.
  await page.getByTestId('report-submit').click();
  await expect(page.getByText('Choose a reason.')).toBeVisible();
  await page.getByTestId('report-reason').selectOption('spam');
  await page.getByTestId('report-submit').click();
  await expect(page.getByTestId('report-done')).toContainText('Thank you, we have received your report');
  const { reports } = (await (await page.request.get('/api/report.php')).json()) as { reports: { profile_id: number; reason: string }[] };
  expect(reports).toEqual([expect.objectContaining({ profile_id: profileId, reason: 'spam' })]);
  await context.close();
});

test('the statement page and its appeal work without JavaScript', async ({ page, browser }, info) => {
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, 'reports-statement-nojs', info.project.name);
  const photo = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#3c6' } }).jpeg().toBuffer();
  const upload = await page.request.post('/api/photos.php', { multipart: { photo: { name: 'p.jpg', mimeType: 'image/jpeg', buffer: photo } } });
  expect(upload.status()).toBe(201);
  const photoId = ((await upload.json()) as { photo: { id: number } }).photo.id;
  expect((await page.request.post('/api/moderation.php', { data: { id: photoId, action: 'reject' }, headers: { authorization: `Bearer ${STAFF_TOKEN}` } })).status()).toBe(200);
  const link = linkIn(await latestMail(page.request, email, 'statement_issued'), '/statements/');

  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
  const noJs = await context.newPage();
  await asNewVisitor(noJs);
  await noJs.goto(link);
  await expect(noJs.getByTestId('statement-restriction')).toHaveAttribute('data-restriction', 'photo_removed');
  await noJs.getByTestId('appeal-text').fill('Short');
  await noJs.getByTestId('appeal-submit').click();
  await expect(noJs.getByTestId('appeal-text-error')).toContainText('at least 10 characters');
  await noJs.getByTestId('appeal-text').fill('The photo shows me and nobody else.');
  await noJs.getByTestId('appeal-submit').click();
  await expect(noJs.getByTestId('appeal-state')).toHaveAttribute('data-state', 'open');
  await context.close();
});
