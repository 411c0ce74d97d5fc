import type { Page } from '@playwright/test';
import type { LiveEvent } from '#common/live.ts';
import { expect, test } from './fixtures.ts';
import { asNewVisitor, likeFrom, signUpByApi } from './account-helpers.ts';

/** Records what the live channel delivers to a tab (the window event it dispatches). */
async function recordLive(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { liveEvents: unknown[] };
    w.liveEvents = [];
    window.addEventListener('amora:live', (e) => w.liveEvents.push((e as CustomEvent).detail));
  });
}
const liveEvents = (page: Page) => page.evaluate(() => (window as unknown as { liveEvents: LiveEvent[] }).liveEvents);

test('a like arrives live in every open tab; a tab that lost its connection catches up after reconnecting', async ({ page, browser }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'live-liked', info.project.name);
  const me = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;

  // The first tab's connection goes through a route the test can cut, as a network drop would.
  let online = true;
  let cut: (() => Promise<void>) | null = null;
  await page.routeWebSocket('**/api/live', (ws) => {
    if (!online) {
      void ws.close({ code: 1001, reason: 'offline' });
      return;
    }
    ws.connectToServer();
    cut = () => ws.close({ code: 1001, reason: 'network drop' });
  });
  const second = await page.context().newPage();
  await page.goto('/members');
  await second.goto('/likes');
  for (const tab of [page, second]) {
    await expect(tab.locator('html')).toHaveAttribute('data-live', 'open');
    await recordLive(tab);
  }

  const first = await likeFrom(browser, me, 'live-liker', info.project.name);
  for (const tab of [page, second]) {
    await expect.poll(() => liveEvents(tab)).toEqual([{ type: 'like', profile_id: first, match: false }]);
    await expect(tab.getByTestId('likes-badge')).toHaveText('1');
  }
  // The likes page shows the new liker without a reload.
  await expect(second.getByTestId('likes-list').locator(`a[href="/members/${first}"]`)).toBeVisible();

  // The connection drops and stays down while another like comes in: that tab hears nothing of it…
  online = false;
  await cut!();
  await expect(page.locator('html')).toHaveAttribute('data-live', 'closed');
  const missed = await likeFrom(browser, me, 'live-liker', info.project.name);
  await expect(second.getByTestId('likes-badge')).toHaveText('2');
  expect(await liveEvents(page)).toHaveLength(1);
  // …and once it is back, the tab refetches and shows it, without waiting for the next poll.
  online = true;
  await expect(page.locator('html')).toHaveAttribute('data-live', 'open', { timeout: 15_000 });
  await expect(page.getByTestId('likes-badge')).toHaveText('2');
  expect(missed).not.toBe(first);
});
