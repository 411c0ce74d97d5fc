import { asNewVisitor, signUpByApi } from './account-helpers.ts';
import { expect, test } from './fixtures.ts';

test('a member\'s chosen language follows them to a new device: pages without the locale cookie are in their language', async ({ page, browser }, info) => {
  const headers = await asNewVisitor(page);
  const { email, password } = await signUpByApi(page, headers, 'suomi', info.project.name);
  expect((await page.request.put('/api/user.php', { data: { language: 'fi' } })).status()).toBe(200);

  // Another device: no cookies at all, a browser that prefers English.
  const other = await browser.newContext({ locale: 'en-GB', extraHTTPHeaders: { ...headers, 'accept-language': 'en-GB,en;q=0.9' } });
  const device = await other.newPage();
  const login = await device.request.post('/api/user.php', { data: { email, password }, headers: { 'x-request-type': 'client' } });
  expect(login.status(), await login.text()).toBe(200);
  await other.clearCookies({ name: 'locale' });
  expect((await other.cookies()).map((c) => c.name)).not.toContain('locale');
  const answer = await device.goto('/members');
  expect(answer?.status()).toBe(200);
  await expect(device.locator('html')).toHaveAttribute('lang', 'fi-FI');
  await expect(device.getByRole('link', { name: 'Chatit' }).first()).toBeAttached();
  // And so does the next page, of any kind.
  await device.goto('/chats');
  await expect(device.locator('html')).toHaveAttribute('lang', 'fi-FI');
  await other.close();
});
