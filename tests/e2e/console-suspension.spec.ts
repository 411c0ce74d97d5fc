import { expect, test } from './fixtures.ts';
import { asStaff } from './console-staff.ts';
import { newMember } from './account-helpers.ts';

/**
 * A moderator suspends a member from the member's page (decision 063): asked first, then the member is signed out and
 * the log-in page says until when; ending the suspension early lets them in again. The rules (hiding, the clock, the
 * appeal) are covered by server/moderation/suspensions.test.ts.
 */
test('a moderator suspends a member for some days after confirming, the member\'s log-in says until when, and ends it early', async ({ browser, page, shot }, info) => {
  const member = await newMember(browser, 'suspended', info.project.name);
  const { email } = ((await (await member.page.request.get('/api/user.php')).json()) as { user: { email: string } }).user;
  await asStaff(page);
  await page.goto(`/console/members/${member.id}`);
  const moderation = page.getByTestId('member-moderation');
  await moderation.getByLabel('Days (1–365)').fill('5');
  await moderation.getByLabel('Ground').selectOption('terms_harassment');
  await moderation.locator('#suspend-facts').fill('Insults in several chats');
  await page.getByTestId('action-suspend').click();
  const confirm = page.getByTestId('confirm-suspend');
  await expect(confirm).toContainText('for 5 days');
  await expect(confirm).toContainText('Insults in several chats');
  // Nothing happens before the confirmation.
  expect((await member.page.request.get('/api/user.php')).status()).toBe(200);
  await shot('console-member-suspend-confirm');
  await page.getByTestId('confirm-suspend-yes').click();
  await expect(page.getByTestId('member-action-done')).toContainText('The member is suspended until');
  expect((await member.page.request.get('/api/user.php')).status()).toBe(403);

  // The member's log-in page gives the reason and the end, in their language.
  const login = member.page;
  await login.goto('/login');
  await login.getByLabel('E-mail address').fill(email);
  await login.getByLabel('Password').fill('first password');
  await login.getByTestId('login-submit').click();
  await expect(login.getByTestId('login-error')).toContainText('Your account is suspended until');
  await expect(login.getByTestId('login-error')).toContainText('UTC');

  // Ended early from the console, asked first: the member logs in again.
  await page.reload();
  await moderation.locator('#end-suspension-reason').fill('Settled after a call');
  await page.getByTestId('action-end_suspension').click();
  await page.getByTestId('confirm-end_suspension-yes').click();
  await expect(page.getByTestId('member-action-done')).toContainText('The suspension has ended.');
  await login.getByLabel('E-mail address').fill(email);
  await login.getByLabel('Password').fill('first password');
  await login.getByTestId('login-submit').click();
  await expect(login).toHaveURL(/\/members/);
  await member.close();
});
