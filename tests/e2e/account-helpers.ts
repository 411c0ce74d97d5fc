import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { DISMISS_COOKIE, DISMISS_KEYS } from '#common/constants.ts';
import { expect, test } from './fixtures.ts';
import { sitePort } from './site-port.ts';

interface OutboxMail { id: string; kind: string; to: string; subject: string; text: string; html: string; headers: Record<string, string> }

/** A client address of its own for a test (the e2e server trusts X-Forwarded-For). */
export function randomClientIp(): string {
  return `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
}

/**
 * Each test is its own client address (the e2e server trusts X-Forwarded-For), so the per-IP
 * limits on sign-up, log-in and mail see separate visitors, as they would in real life.
 */
export async function asNewVisitor(page: Page): Promise<Record<string, string>> {
  const ip = randomClientIp();
  const headers = { 'x-forwarded-for': ip };
  await page.context().setExtraHTTPHeaders(headers);
  // Adults-only warning: dismissed, as a returning visitor would have (the dismissals cookie, which the server reads,
  // and localStorage).
  const baseURL = test.info().project.use.baseURL;
  if (baseURL) await page.context().addCookies([{ name: DISMISS_COOKIE, value: DISMISS_KEYS.entryWarning, url: baseURL }]);
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
  return headers;
}

/** Signs up through the API (the browser context keeps the session cookie). */
export async function signUpByApi(page: Page, headers: Record<string, string>, prefix: string, project: string) {
  const email = `${prefix}.${project}.${Date.now()}@example.org`;
  const res = await page.request.post('/api/signup.php', {
    headers,
    data: { email, name: 'Kim', password: 'first password', date_of_birth: '1990-03-03', gender: 'female', country: 'NL' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { email, password: 'first password' };
}

/** The mailbox of the SMTP server that receives the e2e server's mail (scripts/e2e-server.mjs). */
const mailbox = () => `http://127.0.0.1:${sitePort() + 1}/mails.json`;

/** The newest mail of `kind` to `to`, as the test SMTP server received it, waiting for it to arrive. */
export async function latestMail(request: APIRequestContext, to: string, kind: string): Promise<OutboxMail> {
  let found: OutboxMail | undefined;
  await expect.poll(async () => {
    const res = await request.get(`${mailbox()}?to=${encodeURIComponent(to)}`);
    const { mails } = (await res.json()) as { mails: OutboxMail[] };
    found = mails.find((m) => m.kind === kind);
    return Boolean(found);
  }, { timeout: 10_000 }).toBe(true);
  return found!;
}

/** The link in a mail that contains `part`, as a path on the test server. */
export function linkIn(mail: OutboxMail, part: string): string {
  const url = mail.text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(part));
  if (!url) throw new Error(`no ${part} link in ${mail.subject}`);
  const u = new URL(url);
  return u.pathname + u.search;
}

/** The 6-digit code of the newest text message to `to`, from the e2e server's dev SMS outbox (scripts/e2e-server.mjs). */
export async function latestSmsCode(request: APIRequestContext, to: string, after = 0): Promise<string> {
  let code: string | undefined;
  await expect.poll(async () => {
    const res = await request.get(`http://127.0.0.1:${sitePort() + 1}/sms.json?to=${encodeURIComponent(to)}`);
    const { messages } = (await res.json()) as { messages: { text: string; date: string }[] };
    code = messages.filter((m) => Date.parse(m.date) >= after)[0]?.text.match(/\b(\d{6})\b/)?.[1];
    return Boolean(code);
  }, { timeout: 10_000 }).toBe(true);
  return code!;
}

/** A mobile number of its own per run: the per-number SMS limit of one run does not reach the next. */
export const newMobile = () => `+3162${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;

/** Fills in the direct-debit form's details (an account holder in Amsterdam, `iban`, `mobile`) and ticks both consents. */
export async function fillDirectDebitDetails(page: Page, { iban, mobile }: { iban: string; mobile: string }) {
  await page.getByTestId('dd-account_holder').fill('Kim de Vries');
  await page.getByTestId('dd-iban').fill(iban);
  await page.getByTestId('dd-street').fill('Damrak');
  await page.getByTestId('dd-house_number').fill('12');
  await page.getByTestId('dd-zip').fill('1012 LG');
  await page.getByTestId('dd-city').fill('Amsterdam');
  await page.getByTestId('dd-mobile').fill(mobile.replace(/^\+31/, '+31 '));
  await page.getByTestId('dd-mandate_consent').check();
  await page.getByTestId('dd-withdrawal_consent').check();
}

/**
 * Demo members (seeded, with photos, confirmed): the search's first page is the newest members, which in a full
 * run are other tests' new members (aged 36–41, no photo, unconfirmed), so this looks where none of them are.
 */
export async function demoMembers(request: APIRequestContext): Promise<{ id: number; main_image: unknown }[]> {
  const res = await request.get('/api/members.php?min_age=50&max_age=99', { headers: { 'X-Request-Type': 'client' } });
  expect(res.status()).toBe(200);
  const { profiles } = (await res.json()) as { profiles: { id: number; main_image: unknown }[] };
  expect(profiles.length).toBeGreaterThan(0);
  return profiles;
}

/** A member of their own (own browser context and address), signed up through the API. */
export async function newMember(browser: Browser, prefix: string, project: string): Promise<{ page: Page; id: number; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, prefix, project);
  const id = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
  return { page, id, close: () => context.close() };
}

/** Another member, in a browser of their own, likes `profileId`; answers the liker's id. */
export async function likeFrom(browser: Browser, profileId: number, prefix: string, project: string): Promise<number> {
  const liker = await newMember(browser, prefix, project);
  expect((await liker.page.request.post('/api/like.php', { data: { profile_id: profileId } })).status()).toBe(200);
  await liker.close();
  return liker.id;
}

/** Confirms the member's address through the activation mail's link, in their own browser. */
export async function activate(page: Page, email: string) {
  await page.goto(linkIn(await latestMail(page.request, email, 'activation'), '/api/activate.php'));
}

/** The member buys the first bundle and pays it at the test checkout; answers the order. */
export async function paidOrder(page: Page, key: string): Promise<{ id: string; amount: number; currency: string }> {
  const { packages } = (await (await page.request.get('/api/packages.php')).json()) as { packages: { id: number }[] };
  const placed = await page.request.post('/api/order.php', {
    data: { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, headers: { 'idempotency-key': key },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const { order } = (await placed.json()) as { order: { id: string; payment_id: string; amount: number; currency: string } };
  expect((await page.request.post('/api/test-checkout.php', { data: { id: order.payment_id, outcome: 'paid' } })).status()).toBe(200);
  return order;
}
