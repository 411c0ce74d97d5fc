import { expect, test } from './fixtures.ts';
import { asNewVisitor, latestMail, linkIn, signUpByApi } from './account-helpers.ts';

test('password reset by mail; wrong passwords elsewhere never lock the owner out', async ({ page, shot, playwright }, info) => {
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, 'reset', info.project.name);
  await page.request.post('/api/logout.php', { headers });

  await page.goto('/login');
  await page.getByTestId('forgot-password').click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.locator('#reset-email').fill('nobody.at.all@example.org');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-email-error')).toHaveText('We could not find an account with this e-mail address.');
  await page.locator('#reset-email').fill(email);
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-sent')).toContainText(email);
  await shot('account-reset-sent');

  const mail = await latestMail(page.request, email, 'password_reset');
  const link = linkIn(mail, '/reset-password/do');
  await page.goto(link);
  // Guessable passwords: the server names the reason under the field, and the link still works.
  await page.locator('#reset-password').fill('Passw0rd!');
  await page.locator('#reset-password-confirm').fill('Passw0rd!');
  await page.getByTestId('reset-do-submit').click();
  await expect(page.getByTestId('reset-password-error')).toHaveText('This password is too easy to guess: it is a common password or is built on a common word. Please choose another one.');
  await page.locator('#reset-password').fill('Amora2024');
  await page.locator('#reset-password-confirm').fill('Amora2024');
  await page.getByTestId('reset-do-submit').click();
  await expect(page.getByTestId('reset-password-error')).toHaveText('This password is too easy to guess: it contains the site\'s name. Please choose another one.');
  // Too short: the browser says so before sending.
  await page.locator('#reset-password').fill('short');
  await page.getByTestId('reset-do-submit').click();
  await expect(page.getByTestId('reset-password-error')).toHaveText('Your password must be at least 8 characters long.');
  await page.locator('#reset-password').fill('second password');
  await page.locator('#reset-password-confirm').fill('other password');
  await page.getByTestId('reset-do-submit').click();
  await expect(page.getByTestId('reset-password-confirm-error')).toHaveText('The two passwords do not match.');
  await page.locator('#reset-password-confirm').fill('second password');
  await page.getByTestId('reset-do-submit').click();
  await expect(page.getByTestId('reset-done')).toBeVisible();
  // The link works once.
  await page.goto(link);
  await expect(page.getByTestId('reset-error')).toHaveText('This link has expired or is not valid. Please request a new one.');

  // No lock-out as a weapon: wrong passwords from another address slow that address down…
  const attacker = await playwright.request.newContext({
    baseURL: info.project.use.baseURL, extraHTTPHeaders: { 'x-forwarded-for': `10.251.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` },
  });
  for (let i = 0; i < 5; i++) {
    expect((await attacker.post('/api/user.php', { data: { email, password: 'wrong password' } })).status()).toBe(401);
  }
  const throttled = await attacker.post('/api/user.php', { data: { email, password: 'second password' } });
  expect(throttled.status()).toBe(429);
  expect((await throttled.json()).error.message).toBe('Too many failed log-ins. Please wait 15 minutes, or reset your password to log in right away.');
  await attacker.dispose();
  // …while the owner, in this browser (known since the reset), is not locked out.
  await page.goto('/login');
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill('wrong password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('The e-mail address or password is incorrect. Please try again.');
  await shot('account-login-failed');
  await page.locator('#login-password').fill('second password');
  await page.getByTestId('login-submit').click();
  await expect(page).not.toHaveURL(/\/login/);
});
