import { expect, test } from './fixtures.ts';
import { asNewVisitor, latestMail, linkIn, signUpByApi } from './account-helpers.ts';

test('password reset by mail, then the lock-out after 5 wrong passwords', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, 'reset', info.project.name);
  await page.request.get('/api/logout.php', { headers });

  await page.goto('/login');
  await page.getByTestId('forgot-password').click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await page.locator('#reset-email').fill('nobody.at.all@example.org');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-error')).toHaveText('We could not find an account with this e-mail address.');
  await page.locator('#reset-email').fill(email);
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-sent')).toContainText(email);
  await shot('account-reset-sent');

  const mail = await latestMail(page.request, email, 'password_reset');
  const link = linkIn(mail, '/reset-password/do');
  await page.goto(link);
  await page.locator('#reset-password').fill('second password');
  await page.locator('#reset-password-confirm').fill('other password');
  await page.getByTestId('reset-do-submit').click();
  await expect(page.getByTestId('reset-error')).toHaveText('The two passwords do not match.');
  await page.locator('#reset-password-confirm').fill('second password');
  await page.getByTestId('reset-do-submit').click();
  await expect(page.getByTestId('reset-done')).toBeVisible();
  // The link works once.
  await page.goto(link);
  await expect(page.getByTestId('reset-error')).toHaveText('This link has expired or is not valid. Please request a new one.');

  // Lock-out: 5 wrong passwords in a row block the account, even for the right password.
  await page.goto('/login');
  for (let i = 0; i < 4; i++) {
    expect((await page.request.post('/api/user.php', { headers, data: { email, password: 'wrong password' } })).status()).toBe(401);
  }
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill('wrong password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText('Too many attempts: your account is blocked for 15 minutes.');
  await page.locator('#login-password').fill('second password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toContainText('Too many attempts');
  await shot('account-locked');
});
