import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { enterPastWarning, expect, SCREENSHOT_DIR, test } from './fixtures.ts';
import { asNewVisitor, demoMembers, latestMail, linkIn, signUpByApi } from './account-helpers.ts';

/**
 * Notice and action (DSA Art. 16) on /complaints: a visitor reports a profile from its page, a member
 * reports a message from the chat; each gets the reference on the page and by mail, and the mail's
 * link opens the follow page. The operator's decision is covered by server/moderation/notices.test.ts.
 */

const REFERENCE = /^[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}$/;

async function buyCredits(page: Page) {
  const { packages } = (await (await page.request.get('/api/packages.php')).json()) as { packages: { id: number }[] };
  const order = await page.request.post('/api/order.php', {
    data: { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, headers: { 'idempotency-key': `complaints-order-${Date.now()}` },
  });
  expect(order.status(), await order.text()).toBeLessThan(300);
  const { order: placed } = (await order.json()) as { order: { payment_id: string } };
  expect((await page.request.post('/api/test-checkout.php', { data: { id: placed.payment_id, outcome: 'paid' } })).status()).toBe(200);
}

const idOf = async (page: Page) => ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;

test('a visitor reports a profile from its page, gets the reference by mail and follows it', async ({ page, shot }, info) => {
  await asNewVisitor(page);
  // A demo profile with a photo: its page shows the photo with a Report link of its own.
  const profileId = (await demoMembers(page.request)).find((p) => p.main_image)?.id;
  expect(profileId).toBeDefined();
  await page.goto(`/members/${profileId}`);
  // The photo on show can be reported too, by its own id.
  await expect(page.getByTestId('report-photo')).toHaveAttribute('href', /^\/complaints\?kind=photo&id=\d+$/);
  await page.getByTestId('report-profile').scrollIntoViewIfNeeded();
  await shot('complaints-profile-link');
  await page.getByTestId('report-profile').click();
  await expect(page).toHaveURL(new RegExp(`/complaints\\?kind=profile&id=${profileId}$`));
  await expect(page.getByTestId('notice-kind')).toHaveValue('profile');
  await expect(page.getByTestId('notice-content')).toHaveValue(String(profileId));
  await shot('complaints-form');

  // Sent half-filled: each missing piece is named beside its field.
  await page.getByTestId('notice-reason').selectOption('harassment');
  await page.getByTestId('notice-submit').click();
  await expect(page.getByTestId('notice-explanation-error')).toHaveText('Explain in a few words why this content should be removed.');
  await expect(page.getByTestId('notice-name-error')).toHaveText('Enter your name.');
  await expect(page.getByTestId('notice-bona-fide-error')).toHaveText('Confirm that your report is accurate and complete.');
  await shot('complaints-errors');

  const email = `visitor.notice.${info.project.name}.${Date.now()}@example.org`;
  await page.getByTestId('notice-explanation').fill('This profile sends threatening messages to other members.');
  await page.getByTestId('notice-name').fill('Vera Visitor');
  await page.getByTestId('notice-email').fill(email);
  await page.getByTestId('notice-bona-fide').check();
  await page.getByTestId('notice-submit').click();
  await expect(page.getByTestId('notice-sent')).toBeVisible();
  const reference = (await page.getByTestId('notice-reference').textContent()) ?? '';
  expect(reference).toMatch(REFERENCE);
  await expect(page.getByTestId('notice-sent')).toContainText(email);
  await shot('complaints-sent');

  const mail = await latestMail(page.request, email, 'notice_received');
  expect(mail.subject).toBe(`We have received your report ${reference}`);
  expect(mail.text).toContain('You receive this e-mail because this address was given with a report to');
  const follow = linkIn(mail, `/complaints/${reference}`);
  await page.goto(follow);
  await expect(page.getByTestId('follow-reference')).toHaveText(reference);
  await expect(page.getByTestId('follow-status')).toHaveText('Received');
  await shot('complaints-follow');

  // Without the mailed token the notice is not there.
  expect((await page.request.get(`/complaints/${reference}`)).status()).toBe(404);
  // (a token with its first character changed: never the same one)
  expect((await page.request.get(follow.replace(/token=(.)/, (_, c: string) => `token=${c === 'x' ? 'y' : 'x'}`))).status()).toBe(404);
});

test('a member reports a message from the chat under their own address', async ({ page, browser, shot }, info) => {
  // A confirmed member writes to B…
  const aContext = await browser.newContext();
  const a = await aContext.newPage();
  const aHeaders = await asNewVisitor(a);
  const { email: aEmail } = await signUpByApi(a, aHeaders, 'complaints-a', info.project.name);
  await a.goto(linkIn(await latestMail(a.request, aEmail, 'activation'), '/api/activate.php'));
  await buyCredits(a);
  const aId = await idOf(a);

  const headers = await asNewVisitor(page);
  const { email: bEmail } = await signUpByApi(page, headers, 'complaints-b', info.project.name);
  await page.goto(linkIn(await latestMail(page.request, bEmail, 'activation'), '/api/activate.php'));
  const bId = await idOf(page);
  const sent = await a.request.post('/api/messages.php', {
    data: { profile_id: bId, text: 'Send me 200 euros and I will visit you' }, headers: { ...aHeaders, 'idempotency-key': `complaints-msg-${Date.now()}` },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const messageId = ((await sent.json()) as { message: { id: number } }).message.id;
  await aContext.close();

  // …B sends a formal notice about it from the conversation: the report sheet links to the notice form.
  await page.goto(`/members/${aId}/chat`);
  await expect(page.getByTestId('report-message')).toHaveCount(1);
  await shot('complaints-chat-link');
  await page.getByTestId('report-message').click();
  await page.getByTestId('report-sheet').getByRole('link', { name: 'Is it illegal? You can also send us a formal notice.' }).click();
  await expect(page).toHaveURL(new RegExp(`/complaints\\?kind=message&id=${messageId}$`));
  await expect(page.getByTestId('notice-kind')).toHaveValue('message');
  await expect(page.getByTestId('notice-email')).toHaveValue(bEmail);
  await expect(page.getByTestId('notice-email')).toHaveAttribute('readonly', '');
  await expect(page.getByTestId('notice-name')).toHaveValue('Kim');
  await page.getByTestId('notice-reason').selectOption('fake_or_scam');
  await page.getByTestId('notice-bona-fide').check();
  await page.getByTestId('notice-submit').click();
  await expect(page.getByTestId('notice-sent')).toBeVisible();
  const reference = (await page.getByTestId('notice-reference').textContent()) ?? '';
  expect(reference).toMatch(REFERENCE);
  await shot('complaints-member-sent');

  const mail = await latestMail(page.request, bEmail, 'notice_received');
  expect(mail.subject).toContain(reference);
  await page.goto(linkIn(mail, `/complaints/${reference}`));
  await expect(page.getByTestId('follow-status')).toHaveText('Received');
  await expect(page.locator('[data-page="complaints-reference"]')).toContainText(`A chat message: ${messageId}`);
});

test('the notice form works without JavaScript: errors from the server, then the reference', async ({ browser }, info) => {
  const baseURL = info.project.use.baseURL;
  const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, extraHTTPHeaders: { 'x-forwarded-for': ip } });
  const page = await context.newPage();
  await page.goto('/complaints?kind=profile&id=2147483000');
  await enterPastWarning(page);
  await page.getByTestId('notice-reason').selectOption('illegal');
  await page.getByTestId('notice-explanation').fill('It offers counterfeit passports for sale.');
  await page.getByTestId('notice-name').fill('Nora');
  await page.getByTestId('notice-email').fill(`nojs.notice.${info.project.name}.${Date.now()}@example.org`);
  await page.getByTestId('notice-bona-fide').check();
  await page.getByTestId('notice-submit').click();
  // The server looked the profile up: there is none, and it says so beside the field, keeping what was typed.
  await expect(page.getByTestId('notice-content-error')).toHaveText('We cannot find this content. Check the number, or use the “Report” link on the content itself.');
  await expect(page.getByTestId('notice-explanation')).toHaveValue('It offers counterfeit passports for sale.');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${info.project.name}-complaints-no-js-error.png`, fullPage: false });
  await page.getByTestId('notice-kind').selectOption('other');
  await page.getByTestId('notice-content').fill('The profile “Passports4U” in the search results');
  await page.getByTestId('notice-bona-fide').check();
  await page.getByTestId('notice-submit').click();
  await expect(page.getByTestId('notice-reference')).toHaveText(REFERENCE);
  await context.close();
});

test('the notice form renders in every language with no key left untranslated', async ({ page, baseURL }) => {
  for (const lang of ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl', 'da', 'fi', 'nb', 'sv']) {
    const strings = JSON.parse(readFileSync(`locales/${lang}.json`, 'utf8'));
    await page.context().addCookies([{ name: 'locale', value: lang, url: baseURL! }]);
    await page.goto('/complaints?kind=photo&id=1');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(strings.complaints.title);
    await expect(page.getByTestId('notice-kind').locator('option:checked')).toHaveText(strings.complaints.kinds.photo);
    await expect(page.getByTestId('notice-submit')).toHaveText(strings.complaints.submit);
    // No i18n key may leak into the page.
    expect(await page.locator('body').innerText()).not.toMatch(/\b(complaints|errors|fields)\.[a-z_]+\b/);
  }
});
