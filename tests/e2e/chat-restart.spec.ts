import { expect, request as playwrightRequest, test } from '@playwright/test';
import { freePort } from '../helpers/free-port.ts';
import { copySeededSite, startBuiltServer, stopBuiltServer } from './own-site.ts';

test('an open conversation misses nothing across a server restart', async ({ page }, info) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const copy = await copySeededSite('restart');
  const base = `http://localhost:${port}`;
  // While the server is down the browser logs its refused reconnection attempts; anything else is an error.
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/ERR_CONNECTION_REFUSED/.test(m.text())) errors.push(m.text());
  });
  let site = await startBuiltServer('site', copy, { port });
  let sender = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  try {
    // The demo member reads; a new member writes (the demo site's first messages are free).
    await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
    const login = await page.request.post(`${base}/api/user.php`, { data: { email: 'demo@example.com', password: 'amora-demo' }, headers: { origin: base } });
    expect(login.status(), await login.text()).toBe(200);
    const demoId = ((await login.json()) as { user: { id: number } }).user.id;
    const signup = await sender.post('/api/signup.php', {
      data: { email: `restart.${Date.now()}@example.org`, name: 'Robin', password: 'first password', date_of_birth: '1990-03-03', gender: 'male', country: 'NL' },
    });
    expect(signup.status(), await signup.text()).toBe(201);
    const send = async (text: string) => {
      const res = await sender.post('/api/messages.php', { data: { profile_id: demoId, text }, headers: { 'idempotency-key': `restart-${text.length}-${Date.now()}` } });
      expect(res.status(), await res.text()).toBe(201);
    };
    await send('Before the restart');

    await page.goto(`${base}/chats`);
    await page.getByTestId('chat-item').first().click();
    await expect(page.getByTestId('message')).toHaveText([/Before the restart/]);
    await expect(page.locator('html')).toHaveAttribute('data-live', 'open');

    // The server goes down and comes back on the same database; a message arrives before the tab has reconnected.
    await stopBuiltServer(site);
    await expect(page.locator('html')).toHaveAttribute('data-live', 'closed');
    site = await startBuiltServer('site', copy, { port });
    // The sender's kept-alive connections died with the old process: a new context with the same session.
    const session = await sender.storageState();
    await sender.dispose();
    sender = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { origin: base }, storageState: session });
    await send('Right after the restart');
    // The tab reconnects by itself and fetches what it missed, without a reload and long before the next poll.
    await expect(page.locator('html')).toHaveAttribute('data-live', 'open', { timeout: 20_000 });
    await expect(page.getByTestId('message')).toHaveText([/Before the restart/, /Right after the restart/], { timeout: 5_000 });
    // And the live channel works again.
    await send('Live again');
    await expect(page.getByTestId('message')).toHaveCount(3);
    await page.screenshot({ path: `tests/e2e/screenshots/${info.project.name}-chat-after-restart.png` });
    expect(errors, 'browser errors').toEqual([]);
  } finally {
    await sender.dispose();
    await stopBuiltServer(site).catch(() => undefined);
    await copy.drop();
  }
});
