import { expect, openNav, test } from './fixtures.ts';
import { asNewVisitor, latestMail, linkIn, signUpByApi } from './account-helpers.ts';

test('activation link from the mail, notification settings, invisible mode, e-mail change', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  const { email, password } = await signUpByApi(page, headers, 'settings', info.project.name);

  // The activation mail arrives with both parts and the link confirms the address.
  const activation = await latestMail(page.request, email, 'activation');
  expect(activation.subject).toBe('Confirm your e-mail address for Amora');
  expect(activation.html).toContain('KvK');
  await page.goto(linkIn(activation, '/api/activate.php'));
  await expect(page).toHaveURL(/\/activate\/done$/);
  await expect(page.getByTestId('activate-done')).toHaveText('Your e-mail address is confirmed');
  await shot('account-activated');
  // The same link twice: the error page with next steps.
  await page.goto(linkIn(activation, '/api/activate.php'));
  await expect(page).toHaveURL(/\/activate\/error$/);
  await expect(page.getByTestId('activate-error')).toBeVisible();

  // Settings through the account menu.
  await page.goto('/members');
  await openNav(page, 'account-dropdown');
  await page.getByTestId('nav-settings').click();
  await expect(page).toHaveURL(/\/notifications$/);
  // Advertising mail is off until the member asks for it; mail about their own activity is on.
  const newsletter = page.locator('#email-newsletter');
  await expect(newsletter).not.toBeChecked();
  await expect(page.locator('#email-special_offers')).not.toBeChecked();
  await expect(page.locator('#email-new_message')).toBeChecked();
  await newsletter.check();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  await page.locator('#email-new_like').uncheck();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  await page.locator('#invisible').check();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  await shot('account-settings');
  await page.reload();
  await expect(page.locator('#email-newsletter')).toBeChecked();
  await expect(page.locator('#email-special_offers')).not.toBeChecked();
  await expect(page.locator('#email-new_like')).not.toBeChecked();
  await expect(page.locator('#email-new_message')).toBeChecked();
  await expect(page.locator('#invisible')).toBeChecked();

  // E-mail change: a duplicate is refused; a new address gets the confirmation link.
  await page.locator('#mail-change-email').fill('demo@example.com');
  await page.locator('#mail-change-password').fill(password);
  await page.getByTestId('mail-change-submit').click();
  await expect(page.getByTestId('mail-change-email-error')).toHaveText('An account with this e-mail address already exists. Please log in instead.');
  const newEmail = `changed.${email}`;
  await page.locator('#mail-change-email').fill(newEmail);
  await page.locator('#mail-change-password').fill(password);
  await page.getByTestId('mail-change-submit').click();
  await expect(page.getByTestId('mail-change-ok')).toContainText(newEmail);
  const confirm = await latestMail(page.request, newEmail, 'email_change');
  await page.goto(linkIn(confirm, '/mail-change/do'));
  await expect(page.getByTestId('mail-change-done')).toBeVisible();
  await page.goto('/notifications');
  await expect(page.getByTestId('current-email')).toContainText(newEmail);
});

test('changing the password in the settings: the reason for a weak one shows under the field', async ({ page }, info) => {
  const headers = await asNewVisitor(page);
  const { email, password } = await signUpByApi(page, headers, 'pwchange', info.project.name);
  await page.goto('/notifications');
  const change = async (next: string) => {
    await page.locator('#old-password').fill(password);
    await page.locator('#new-password').fill(next);
    await page.locator('#new-password-confirm').fill(next);
    await page.getByTestId('password-change-submit').click();
  };
  // Checked in the browser: the e-mail address.
  await change(email.toUpperCase());
  await expect(page.getByTestId('change-password-error')).toHaveText('Your password must not be your e-mail address.');
  // Checked by the server: common passwords, and how guessable it is with the member's own details.
  await change('Sunshine1');
  await expect(page.getByTestId('change-password-error')).toHaveText('This password is too easy to guess: it is a common password or is built on a common word. Please choose another one.');
  await change('Kim03031990');
  await expect(page.getByTestId('change-password-error')).toHaveText('This password is too easy to guess: it contains your name, e-mail address or date of birth. Please choose another one.');
  await change('a quiet harbour at noon');
  await expect(page.getByTestId('password-change-ok')).toBeVisible();
  await expect(page.getByTestId('change-password-error')).toBeHidden();
});
