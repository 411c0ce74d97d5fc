import type { Page } from '@playwright/test';
import { asNewVisitor, latestMail, linkIn, randomClientIp, signUpByApi } from './account-helpers.ts';
import { acceptEntryWarning, expect, hydrated, test } from './fixtures.ts';

const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function fillAccount(page: Page, email: string, name = 'Stepper', password = 'step-by-step-password') {
  await page.locator('#signup-email').fill(email);
  await page.locator('#signup-name').fill(name);
  await page.locator('#signup-password').fill(password);
  await page.locator('#signup-dob').fill('1988-07-14');
  await page.locator('#signup-gender').selectOption('male');
  await page.locator('#signup-country').selectOption('NL');
}

async function openSignup(page: Page, mobile: boolean) {
  await page.goto('/');
  await acceptEntryWarning(page);
  await page.getByTestId('cta-signup').click();
  if (mobile) await expect(page).toHaveURL(/\/signup$/);
  else await expect(page.getByTestId('signup-modal')).toBeVisible();
}

/** A seeded member (confirmed), not one another test just signed up. */
async function aMember(page: Page): Promise<{ id: number; name: string }> {
  const res = await page.request.get('/api/profile.php?id=1');
  return (await res.json()).profile;
}

test('the sign-up modal cannot be closed by Escape or the backdrop once sign-up has started', async ({ page }) => {
  await openSignup(page, false);
  const modal = page.getByTestId('signup-modal');
  // Not started yet: Escape closes it, and the page stayed where it was.
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await expect(page).toHaveURL(/\/$/);

  await page.getByTestId('cta-signup').click();
  await expect(modal).toBeVisible();
  await page.locator('#signup-name').fill('Started');
  await expect(modal).toHaveAttribute('data-in-progress', 'true');
  await page.keyboard.press('Escape');
  await expect(modal).toBeVisible();
  await page.mouse.click(10, 10);
  await expect(modal).toBeVisible();
  await expect(page.locator('#signup-name')).toHaveValue('Started');
  // The close button still ends it.
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(modal).toBeHidden();
});

test('the log-in page\'s sign-up link opens the modal on larger screens and the page on smartphones', { tag: '@phone' }, async ({ page }, info) => {
  await page.goto('/login');
  await acceptEntryWarning(page);
  await page.getByRole('link', { name: 'Sign up' }).click();
  if (info.project.name === 'mobile') await expect(page).toHaveURL(/\/signup$/);
  else {
    await expect(page.getByTestId('signup-modal')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  }
});

test('every step: account with did-you-mean, photo upload with progress, about me, push, complete', { tag: '@phone' }, async ({ page, shot }, info) => {
  // Every step of the sign-up with its screenshots and accessibility checks: longer than one minute on a busy machine.
  test.slow();
  const mobile = info.project.name === 'mobile';
  await openSignup(page, mobile);
  await shot('signup-0-account');

  // Did you mean: a typo in the domain is offered as a clickable correction.
  const local = `steps.${info.project.name}.${Date.now()}`;
  await fillAccount(page, `${local}@gmial.com`);
  await page.locator('#signup-name').focus();
  await expect(page.getByTestId('email-suggestion')).toContainText(`Did you mean ${local}@gmail.com?`);
  await shot('signup-0-did-you-mean');
  await page.getByTestId('email-suggestion-apply').click();
  await expect(page.locator('#signup-email')).toHaveValue(`${local}@gmail.com`);
  await expect(page.getByTestId('email-suggestion')).toHaveCount(0);
  await page.getByTestId('signup-submit').click();

  const flow = page.getByTestId('signup-flow');
  await expect(flow).toHaveAttribute('data-step', 'photo');
  await expect(page.getByTestId('signup-step-label')).toHaveText('Step 1 of 5');
  // The upload goes to POST /api/photos.php as multipart with field `photo`; it shows at once (moderation after publication).
  await page.locator('#signup-photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_1PX });
  await shot('signup-1-photo');
  const upload = page.waitForResponse((r) => r.url().endsWith('/api/photos.php') && r.request().method() === 'POST');
  await page.getByTestId('signup-photo-upload').click();
  const answer = await upload;
  expect(answer.request().headers()['content-type']).toMatch(/^multipart\/form-data/);
  expect(answer.status()).toBe(201);
  expect((await answer.json()).photo).toMatchObject({ status: 'active', is_private: false });
  // The uploaded photo is listed (more may follow); Next goes on.
  await expect(page.getByTestId('photo-order-item')).toHaveCount(1);
  await page.getByTestId('signup-photo-next').click();
  await expect(flow).toHaveAttribute('data-step', 'looking');

  await shot('signup-2-looking');
  await page.getByLabel('Women', { exact: true }).check();
  await page.getByTestId('signup-next').click();
  await expect(flow).toHaveAttribute('data-step', 'location');
  await page.locator('#signup-location-region').selectOption('UT');
  await shot('signup-3-location');
  await page.getByTestId('signup-next').click();
  await expect(flow).toHaveAttribute('data-step', 'about');
  await page.locator('#signup-about').fill('I like long walks along the canals.');
  await shot('signup-4-about');
  await page.getByTestId('signup-next').click();
  await expect(flow).toHaveAttribute('data-step', 'push');
  await shot('signup-5-push');
  await page.getByTestId('signup-skip').click();
  await expect(flow).toHaveAttribute('data-step', 'complete');
  await expect(page.getByTestId('signup-step-complete')).toContainText(`We sent a link to ${local}@gmail.com`);
  await shot('signup-6-complete');
  if (!mobile) await expect(page.getByTestId('signup-modal')).toHaveAttribute('data-in-progress', 'false');

  // What the steps saved is on the profile.
  const me = (await (await page.request.get('/api/user.php', { headers: { 'X-Request-Type': 'client' } })).json()).user;
  const profile = (await (await page.request.get(`/api/profile.php?id=${me.id}`)).json()).profile;
  expect(profile).toMatchObject({ region: 'Utrecht', about: 'I like long walks along the canals.' });

  await page.getByTestId('signup-finish').click();
  await expect(page).toHaveURL(mobile ? /\/members\?signup-complete=1$/ : /\/members$/);
  if (mobile) {
    await expect(page.getByTestId('activation-modal')).toBeVisible();
    await shot('signup-7-activation-modal');
  } else {
    await expect(page.getByTestId('alert-activation')).toBeVisible();
  }
  // The first list follows the answer "looking for women", without a reload.
  await expect(page.locator('#search-gender')).toHaveValue('female');
});

test('a guessable password: the server\'s reason shows under the password field, and no account is made until a good one', { tag: '@phone' }, async ({ page, shot }, info) => {
  // An address of its own: four sign-ups count against the per-address limit.
  await page.context().setExtraHTTPHeaders({ 'x-forwarded-for': randomClientIp() });
  await openSignup(page, info.project.name === 'mobile');
  const email = `guessable.${info.project.name}.${Date.now()}@example.org`;
  const error = page.locator('#signup-password ~ .invalid-feedback');
  const flow = page.getByTestId('signup-flow');
  const refused = [
    ['Amora2024!', 'This password is too easy to guess: it contains the site\'s name. Please choose another one.'],
    ['Stepper1988', 'This password is too easy to guess: it contains your name, e-mail address or date of birth. Please choose another one.'],
    // A zero-width space inside changes nothing.
    ['pass\u200Bword1!', 'This password is too easy to guess: it is a common password or is built on a common word. Please choose another one.'],
  ];
  for (const [password, reason] of refused) {
    await fillAccount(page, email, 'Stepper', password);
    await page.getByTestId('signup-submit').click();
    await expect(error).toHaveText(reason);
    await expect(flow).toHaveAttribute('data-step', 'account');
    // The refused field is brought into view and takes the focus (on a phone the member scrolled down to send).
    await expect(page.locator('#signup-password')).toBeFocused();
    await expect(page.locator('#signup-password')).toBeInViewport();
  }
  await shot('signup-0-guessable-password');
  expect((await page.request.post('/api/user.php', { data: { email, password: 'Amora2024!' } })).status()).toBe(401);
  await page.locator('#signup-password').fill('amber rivers fold quietly');
  await page.getByTestId('signup-submit').click();
  await expect(flow).toHaveAttribute('data-step', 'photo');
});

test('an existing account is offered log-in with the address filled in', async ({ page, shot }, info) => {
  await openSignup(page, info.project.name === 'mobile');
  await fillAccount(page, 'demo@example.com', 'Someone');
  await page.getByTestId('signup-submit').click();
  const offer = page.getByTestId('signup-login-offer');
  await expect(offer).toBeVisible();
  await expect(page.getByTestId('signup-login-email')).toHaveValue('demo@example.com');
  await shot('signup-existing-account');
  await page.getByTestId('signup-login-password').fill('amora-demo');
  await page.getByTestId('signup-login-submit').click();
  await expect(page).toHaveURL(/\/members$/);
});

test('a recently deleted account is offered reactivation by mail or customer service', { tag: '@phone' }, async ({ page, shot }, info) => {
  // A member who deleted their account today.
  const headers = await asNewVisitor(page);
  const { email, password } = await signUpByApi(page, headers, 'gone', info.project.name);
  const deleted = await page.request.delete('/api/user.php', { headers, data: { password, reason: 'found_partner' } });
  expect(deleted.status(), await deleted.text()).toBe(200);
  await page.context().clearCookies();

  // A returning visitor: the adults-only warning was dismissed before (asNewVisitor: localStorage, as the cookies
  // are gone), which counts once the page runs.
  await page.goto('/');
  await hydrated(page);
  await page.getByTestId('cta-signup').click();
  if (info.project.name === 'mobile') await expect(page).toHaveURL(/\/signup$/);
  else await expect(page.getByTestId('signup-modal')).toBeVisible();
  await fillAccount(page, email);
  await page.getByTestId('signup-submit').click();
  await expect(page.getByTestId('signup-reactivate-offer')).toBeVisible();
  await expect(page.getByTestId('signup-service')).toHaveAttribute('href', '/pages/service');
  await shot('signup-reactivation-offer');
  await page.getByTestId('signup-reactivate').click();
  await expect(page.getByTestId('signup-reactivate-sent')).toContainText(email);
  // The reactivation link arrives by mail and brings the account back.
  const mail = await latestMail(page.request, email, 'reactivation');
  await page.goto(linkIn(mail, 'reactivate'));
  const me = await page.request.get('/api/user.php', { headers: { 'X-Request-Type': 'client' } });
  expect(me.status()).toBe(200);
  expect((await me.json()).user.email).toBe(email);
});

test('signing up from a member\'s landing page carries a first message, sent as one of the free messages', { tag: '@phone' }, async ({ page, shot }, info) => {
  const mobile = info.project.name === 'mobile';
  const member = await aMember(page);
  await page.goto(`/members/${member.id}/landing`);
  await page.getByTestId('landing-signup').click();
  if (mobile) {
    await expect(page).toHaveURL(new RegExp(`/members/${member.id}/signup$`));
    await acceptEntryWarning(page);
  } else await expect(page.getByTestId('signup-modal')).toBeVisible();
  await expect(page.getByTestId('signup-member')).toContainText(`Your first message to ${member.name}`);
  await page.locator('#signup-message').fill('Hi! Your profile made me smile.');
  await fillAccount(page, `member.${info.project.name}.${Date.now()}@example.org`);
  await shot('signup-member-0-message');
  await page.getByTestId('signup-submit').click();
  const flow = page.getByTestId('signup-flow');
  for (const step of ['photo', 'looking', 'location', 'about', 'push']) {
    await expect(flow).toHaveAttribute('data-step', step);
    await page.getByTestId('signup-skip').click();
  }
  // The demo site gives new members free messages: the first one goes out at once, without credits.
  await expect(page.getByTestId('signup-message-sent')).toContainText(`Your message to ${member.name} has been sent.`);
  await expect(page.getByTestId('signup-message-draft')).toHaveCount(0);
  await shot('signup-member-complete');
});

test('tracking parameters of the first landing are kept, later ones do not overwrite them', async ({ page, context }) => {
  await page.goto('/?network=first-net&sub1=alpha');
  await page.goto('/pricing?network=second-net&ref=beta');
  const cookie = (await context.cookies()).find((c) => c.name === 'amora.tracking');
  expect(cookie?.httpOnly).toBe(true);
  // value.signature (HMAC): readable, but the server ignores it when altered.
  const [value, signature] = cookie!.value.split('.');
  expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(JSON.parse(Buffer.from(value, 'base64url').toString())).toEqual({ network: 'first-net', sub1: 'alpha' });
});

test('the sign-up page fits a 375 px screen and shows the sign-up matches', { tag: '@phone' }, async ({ page, shot }, info) => {
  test.skip(info.project.name !== 'mobile', 'smartphone layout');
  await page.goto('/signup-matches');
  await acceptEntryWarning(page);
  await expect(page.getByTestId('signup-matches').locator('.col')).toHaveCount(6);
  await expect(page.getByTestId('signup-form')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot('signup-matches');
});

test('signed-in members are sent from sign-up to the members area', async ({ page }) => {
  await page.request.post('/api/user.php', { data: { email: 'demo@example.com', password: 'amora-demo' } });
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/members$/);
});

test('complete-signup: visitors go to sign-up, members finish the steps without a language menu', async ({ page, shot }, info) => {
  await page.goto('/complete-signup');
  await expect(page).toHaveURL(/\/signup$/);
  await page.request.post('/api/signup.php', {
    headers: { 'x-forwarded-for': `10.200.${info.project.name === 'mobile' ? 1 : 2}.${Math.floor(Math.random() * 250) + 1}` },
    data: { email: `complete.${info.project.name}.${Date.now()}@example.org`, name: 'Later', password: 'finish-later-1', date_of_birth: '1985-03-03', gender: 'female', country: 'DE' },
  });
  await page.goto('/complete-signup');
  await expect(page.getByTestId('signup-flow')).toHaveAttribute('data-step', 'photo');
  await expect(page.getByRole('button', { name: 'EN', exact: true })).toHaveCount(0);
  await shot('complete-signup');
});
