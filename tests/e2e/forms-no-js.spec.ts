import { enterPastWarning, expect, SCREENSHOT_DIR, test } from './fixtures.ts';
import { randomClientIp } from './account-helpers.ts';

/**
 * Every form is a plain HTML form posting to its page's action: without JavaScript a visitor signs
 * up, a member logs in, gets the server's errors beside their fields and saves the profile. A post
 * from another site is refused.
 */
test('forms work without JavaScript: log in, a field error from the server, save the profile', async ({ browser, playwright }, info) => {
  const baseURL = info.project.use.baseURL;
  const ip = randomClientIp();
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': ip } });
  const email = `nojs.${info.project.name}.${Date.now()}@example.org`;
  const signup = await api.post('/api/signup.php', {
    data: { email, name: 'Noor', password: 'quiet pebble harbour', date_of_birth: '1990-03-03', gender: 'female', country: 'NL' },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await api.dispose();

  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, extraHTTPHeaders: { 'x-forwarded-for': ip } });
  const page = await context.newPage();

  // Log-in: a wrong password comes back from the server as the form's message.
  await page.goto('/login?redirect=/profile');
  // The adults-only warning works without JavaScript too: "Enter" posts, and the page comes back without it.
  await enterPastWarning(page);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill('wrong password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('The e-mail address or password is incorrect. Please try again.');
  // The address stays filled in, the password does not travel back.
  await expect(page.locator('#login-email')).toHaveValue(email);
  await expect(page.locator('#login-password')).toHaveValue('');
  await page.locator('#login-password').fill('quiet pebble harbour');
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/profile$/);

  // A field the shared schema refuses: the server's message stands under that field, and the value stays.
  await page.locator('#profile-name').fill('@noor');
  await page.getByTestId('profile-save').click();
  await expect(page.locator('#profile-name')).toHaveClass(/is-invalid/);
  await expect(page.locator('#profile-name ~ .invalid-feedback')).toHaveText('Your name cannot start with @.');
  await expect(page.locator('#profile-name')).toHaveValue('@noor');
  await expect(page.getByTestId('profile-status')).toHaveText('Some fields need your attention.');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${info.project.name}-forms-no-js-field-error.png`, fullPage: false });

  await page.locator('#profile-name').fill('Noor van Dijk');
  await page.locator('#profile-about').fill('Saved without a line of JavaScript.');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-status')).toHaveText('Your profile has been saved.');
  await page.goto('/profile');
  await expect(page.locator('#profile-name')).toHaveValue('Noor van Dijk');
  await expect(page.locator('#profile-about')).toHaveValue('Saved without a line of JavaScript.');
  await context.close();
});

test('sign-up works without JavaScript: field errors keep the typed values, a valid form signs in', async ({ browser }, info) => {
  const baseURL = info.project.use.baseURL;
  const ip = randomClientIp();
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, extraHTTPHeaders: { 'x-forwarded-for': ip } });
  const page = await context.newPage();
  const email = `nojs.signup.${info.project.name}.${Date.now()}@example.org`;
  const me = () => context.request.get('/api/user.php', { headers: { 'X-Request-Type': 'client' } });
  const fill = async (address: string, birth: string, password = 'no script needed') => {
    await page.locator('#signup-email').fill(address);
    await page.locator('#signup-name').fill('Nojs Signer');
    await page.locator('#signup-password').fill(password);
    await page.locator('#signup-dob').fill(birth);
    await page.locator('#signup-gender').selectOption('female');
    await page.locator('#signup-country').selectOption('NL');
  };

  // A landing parameter in the address travels with the form.
  await page.goto('/signup?network=nojsnet');
  await enterPastWarning(page);
  // An address the shared schema refuses: the server's message stands beside it, the values stay, the password does not.
  await fill('not-an-address', '1992-04-05');
  await page.getByTestId('signup-submit').click();
  await expect(page.locator('#signup-email')).toHaveClass(/is-invalid/);
  await expect(page.locator('#signup-email ~ .invalid-feedback')).toHaveText('Please enter a valid e-mail address.');
  await expect(page.locator('#signup-email')).toHaveValue('not-an-address');
  await expect(page.locator('#signup-name')).toHaveValue('Nojs Signer');
  await expect(page.locator('#signup-gender')).toHaveValue('female');
  await expect(page.locator('#signup-password')).toHaveValue('');

  // Under age: the error is beside the date of birth, and nobody is signed in.
  await fill(email, '2015-01-01');
  await page.getByTestId('signup-submit').click();
  await expect(page.locator('#signup-dob ~ .invalid-feedback')).toHaveText('You must be at least 18 years old to sign up.');
  await expect(page.locator('#signup-email')).toHaveValue(email);
  await expect(page.locator('#signup-dob')).toHaveValue('2015-01-01');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${info.project.name}-forms-no-js-signup-error.png`, fullPage: true });
  const before = await me();
  expect(before.status()).toBe(403);
  expect((await before.json()).error.code).toBe('authentication_required');

  // A guessable password: the server's reason stands beside the password.
  await fill(email, '1992-04-05', 'Summer2024');
  await page.getByTestId('signup-submit').click();
  await expect(page.locator('#signup-password ~ .invalid-feedback'))
    .toHaveText('This password is too easy to guess: it is a common password or is built on a common word. Please choose another one.');
  await expect(page.locator('#signup-email')).toHaveValue(email);

  // The same address now signs up: the refused attempts created nothing.
  await fill(email, '1992-04-05');
  await page.getByTestId('signup-submit').click();
  await expect(page).toHaveURL(/\/members\?signup-complete=1$/);
  const res = await me();
  expect(res.status()).toBe(200);
  expect((await res.json()).user).toMatchObject({ email, status: 'not_confirmed', profile: { name: 'Nojs Signer', country: 'NL' } });
  await context.close();
});

test('without JavaScript an address in use is offered log-in, and that offer signs in', async ({ browser }, info) => {
  const ip = randomClientIp();
  const context = await browser.newContext({ baseURL: info.project.use.baseURL, javaScriptEnabled: false, extraHTTPHeaders: { 'x-forwarded-for': ip } });
  const page = await context.newPage();
  await page.goto('/signup');
  await enterPastWarning(page);
  await page.locator('#signup-email').fill('demo@example.com');
  await page.locator('#signup-name').fill('Someone Else');
  await page.locator('#signup-password').fill('another password');
  await page.locator('#signup-dob').fill('1990-01-01');
  await page.locator('#signup-gender').selectOption('male');
  await page.locator('#signup-country').selectOption('NL');
  await page.getByTestId('signup-submit').click();
  await expect(page.getByTestId('signup-login-offer')).toBeVisible();
  await expect(page.getByTestId('signup-login-email')).toHaveValue('demo@example.com');
  await page.getByTestId('signup-login-password').fill('amora-demo');
  await page.getByTestId('signup-login-submit').click();
  await expect(page).toHaveURL(/\/members$/);
  await context.close();
});

test('a form post from another site is refused and changes nothing', async ({ playwright }, info) => {
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const res = await request.post('/login', {
    form: { email: 'demo@example.com', password: 'amora-demo' },
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(403);
  expect(res.headers()['set-cookie'] ?? '').not.toContain('auth.session');
  await request.dispose();
});

test('the test checkout decides a payment without JavaScript and returns to its status page', async ({ browser }, info) => {
  const baseURL = info.project.use.baseURL;
  const ip = randomClientIp();
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false, extraHTTPHeaders: { 'x-forwarded-for': ip } });
  const signup = await context.request.post('/api/signup.php', {
    data: { email: `nojs.pay.${info.project.name}.${Date.now()}@example.org`, name: 'Noor', password: 'quiet pebble harbour', date_of_birth: '1990-03-03', gender: 'female', country: 'NL' },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const { packages } = (await (await context.request.get('/api/packages.php')).json()) as { packages: { id: number; credits: number }[] };
  const res = await context.request.post('/api/order.php', {
    data: { package_id: packages[0].id, paymentmethod: 'creditcard', withdrawal_consent: true },
    headers: { 'idempotency-key': `nojs-${info.project.name}-${Date.now()}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { checkout_url: checkout } = (await res.json()) as { checkout_url: string };

  const page = await context.newPage();
  await page.goto(checkout);
  await page.getByTestId('outcome-paid').click();
  await expect(page).toHaveURL(/\/credits\/[^/?]+$/);
  await expect(page.getByTestId('payment-completed')).toBeVisible();
  const me = (await (await context.request.get('/api/user.php')).json()) as { user: { credits: number } };
  expect(me.user.credits).toBeGreaterThanOrEqual(packages[0].credits);
  await context.close();
});
