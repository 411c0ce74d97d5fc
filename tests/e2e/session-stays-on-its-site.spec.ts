import { AUTH_COOKIE } from '#common/constants.ts';
import { expect, test } from './fixtures.ts';
import { asNewVisitor, signUpByApi } from './account-helpers.ts';
import { SECOND_SITE, sitePort } from './site-port.ts';

/**
 * A session belongs to the site it was made on (docs/decisions/051): a member signed in on the demo site who brings
 * the same session cookie to the second site (men.localhost, on the same server) is not signed in there, and their
 * account does not log in there either.
 */
const men = `http://${SECOND_SITE.domain}:${sitePort()}`;

test('a member signed in on one site is a visitor on another, even with the same session cookie', async ({ page, shot }, info) => {
  const headers = await asNewVisitor(page);
  const account = await signUpByApi(page, headers, 'tenant', info.project.name);
  await page.goto('/chats');
  await expect(page).toHaveURL(/\/chats$/);

  // The browser keeps the cookie to its host; an attacker copies it to the other site by hand.
  const session = (await page.context().cookies()).find((c) => c.name === AUTH_COOKIE)!;
  expect(session).toBeDefined();
  await page.context().addCookies([{ name: AUTH_COOKIE, value: session.value, domain: SECOND_SITE.domain, path: '/' }]);
  // The second site loads its scripts from its CDN origin: a header added to every request would make each a CORS
  // preflight there, which no browser sends.
  await page.context().setExtraHTTPHeaders({});

  await page.goto(`${men}/chats`);
  await expect(page).toHaveURL(`${men}/login?redirect=%2Fchats`);
  await expect(page.getByTestId('login-submit')).toBeVisible();
  // No account menu: the navigation offers to log in (the API's 403 for this cookie: session-belongs-to-its-site.test.ts).
  await expect(page.getByTestId('login-button')).toHaveCount(1);
  await expect(page.getByTestId('nav-chats')).toHaveCount(0);

  // The account is the demo site's: on the second site it is as unknown as any address.
  await page.locator('#login-email').fill(account.email);
  await page.locator('#login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await shot('tenant-01-other-site-login');

  // At home the session still works.
  await page.goto('/chats');
  await expect(page).toHaveURL(/\/chats$/);
});
