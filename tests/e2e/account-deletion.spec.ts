import { expect, test } from './fixtures.ts';
import { asNewVisitor, latestMail, linkIn, signUpByApi } from './account-helpers.ts';

test('delete with a reason after seeing the offers, then reactivate from the mail within 14 days', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  const { email, password } = await signUpByApi(page, headers, 'delete', info.project.name);

  await page.goto('/notifications');
  await page.getByTestId('delete-account-link').click();
  await expect(page).toHaveURL(/\/delete-account$/);
  await page.getByTestId('reason-too_expensive').check();
  await expect(page.getByTestId('offer-pause')).toBeVisible();
  await shot('account-delete');
  await page.locator('#delete-password').fill('wrong password');
  await page.getByTestId('delete-submit').click();
  await expect(page.getByTestId('delete-error')).toHaveText('The password is not correct.');
  await page.locator('#delete-password').fill(password);
  await page.getByTestId('delete-submit').click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await expect(page.getByTestId('account-deleted')).toBeVisible();
  await expect(page.getByText(/14 days/)).toBeVisible();
  expect((await page.request.get('/api/user.php', { headers })).status()).toBe(403);

  await page.locator('#reactivate-email').fill(email);
  await page.getByTestId('reactivate-submit').click();
  await expect(page.getByTestId('reactivate-sent')).toBeVisible();
  const mail = await latestMail(page.request, email, 'reactivation');
  await page.goto(linkIn(mail, '/api/reactivate.php'));
  await expect(page).toHaveURL(/\/members\?reactivated=1$/);
  await expect(page.getByTestId('account-dropdown')).toBeAttached();
});
