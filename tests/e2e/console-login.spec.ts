import { expect, test } from './fixtures.ts';
import { currentCode, enterPassword, signInToConsole, STAFF } from './console-staff.ts';

/**
 * The console's sign-in: a visitor opening /console gets the sign-in (never a member page); a wrong password and a
 * wrong code say what is wrong; the password and a TOTP code computed here, as an authenticator app would, sign in;
 * signing out ends it. At 375 px the same with a recovery code.
 */
test.describe('console sign-in', () => {
  test('a wrong code is refused, the right TOTP code signs in, and signing out ends the session', async ({ page, shot }) => {
    await page.goto('/console');
    await expect(page).toHaveURL(/\/console\/login$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Console sign-in');
    await expect(page.getByTestId('top-nav')).toHaveCount(0);
    await shot('console-login');

    await enterPassword(page, 'not the password');
    await expect(page.getByTestId('console-login-error')).toHaveText('The e-mail address or password is wrong.');

    await enterPassword(page);
    const code = page.getByLabel('Code', { exact: true });
    await expect(code).toBeFocused();
    await code.fill(currentCode() === '000000' ? '111111' : '000000');
    await page.getByTestId('console-login-submit').click();
    await expect(page.getByTestId('console-login-error')).toContainText('That code is not right, or it has expired.');
    await shot('console-login-wrong-code');

    await page.getByLabel('Code', { exact: true }).fill(currentCode());
    await page.getByTestId('console-login-submit').click();
    await expect(page).toHaveURL(/\/console$/);
    await expect(page.getByTestId('console-staff')).toContainText('Ada Admin');
    await expect(page.getByTestId('console-staff')).toContainText('Admin');
    await shot('console-overview');

    // The cookie is the console's own: HttpOnly and SameSite=Strict.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'console.session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    await page.getByTestId('console-sign-out').click();
    await expect(page).toHaveURL(/\/console\/login$/);
    await page.goto('/console/account');
    await expect(page).toHaveURL(/\/console\/login$/);
  });

  test('a passkey added on the account page signs in after the password in place of the code, until it is removed', async ({ page, shot }) => {
    // Chromium's virtual authenticator: a platform passkey that verifies its user without a prompt.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await signInToConsole(page, STAFF.recoveryCodes[2]);
    await page.goto('/console/account');
    await expect(page.getByText('No passkeys yet.')).toBeVisible();
    // A name first: the browser's own check stops an unnamed passkey.
    await page.getByTestId('console-add-passkey').click();
    await expect(page.getByTestId('console-passkeys')).toHaveCount(0);
    await page.getByLabel('Passkey name').fill('Test laptop');
    await page.getByTestId('console-add-passkey').click();
    await expect(page.getByRole('status')).toHaveText('Passkey added. Next time you can sign in with it.');
    const row = page.getByTestId('console-passkeys').getByRole('row', { name: /Test laptop/ });
    await expect(row).toContainText('localhost');
    await expect(row).toContainText('Never');
    await shot('console-account-passkey');

    await page.getByTestId('console-sign-out').click();
    await expect(page).toHaveURL(/\/console\/login$/);
    await enterPassword(page);
    await expect(page.getByText('or enter a code')).toBeVisible();
    await shot('console-login-passkey');
    await page.getByTestId('console-passkey-sign-in').click();
    await expect(page).toHaveURL(/\/console$/);
    await expect(page.getByTestId('console-staff')).toContainText('Ada Admin');

    await page.goto('/console/account');
    await expect(row).not.toContainText('Never');
    await page.getByRole('button', { name: 'Remove passkey Test laptop' }).click();
    await expect(page.getByText('No passkeys yet.')).toBeVisible();
    await page.getByTestId('console-sign-out').click();
    await enterPassword(page);
    await expect(page.getByLabel('Code', { exact: true })).toBeFocused();
    await expect(page.getByTestId('console-passkey-sign-in')).toHaveCount(0);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 740 } });

    test('signs in with a recovery code; the bar folds into a menu that the keyboard opens', async ({ page, shot }) => {
      await page.goto('/console/login');
      await shot('console-login-375');
      await signInToConsole(page, STAFF.recoveryCodes[1]);
      const toggle = page.getByRole('button', { name: 'Menu' });
      await expect(toggle).toBeVisible();
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(page.locator('#console-nav-items')).toHaveClass(/show/);
      await expect(page.getByTestId('console-nav-account')).toBeVisible();
      await shot('console-overview-375');
      await page.getByTestId('console-nav-account').click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('My account');
      await shot('console-account-375');
    });
  });
});
