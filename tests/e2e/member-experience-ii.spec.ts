import { activate, asNewVisitor, paidOrder, signUpByApi } from './account-helpers.ts';
import { expect, expectSkipLinkFirst, hydrated, openSearchFilters, test } from './fixtures.ts';

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

test.describe('the time-bonus modal', () => {
  test.use({ timeBonusModal: true });

  test('never covers a conversation or a field being filled in; it waits until the member is done', { tag: '@phone' }, async ({ page, browser }, info) => {
    // A new member (0 credits, the bonus running) gets a first message from a member who bought credits.
    const headers = await asNewVisitor(page);
    const { email } = await signUpByApi(page, headers, 'typing', info.project.name);
    await activate(page, email);
    const who = await page.request.get('/api/user.php');
    const me = ((await who.json()) as { user: { id: number } }).user?.id;
    expect(me, await who.text()).toBeTruthy();
    const writerContext = await browser.newContext();
    const writer = await writerContext.newPage();
    const writerAccount = await signUpByApi(writer, await asNewVisitor(writer), 'writer', info.project.name);
    await activate(writer, writerAccount.email);
    await paidOrder(writer, `typing-order-${Date.now()}`);
    const sent = await writer.request.post('/api/messages.php', {
      data: { profile_id: me, text: 'Hello there, how was your day?' }, headers: { 'idempotency-key': `typing-${Date.now()}` },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    await writerContext.close();
    const { chats } = (await (await page.request.get('/api/chats.php')).json()) as { chats: { conversation: { id: number } }[] };

    await page.clock.install();
    const modal = page.getByTestId('time-bonus-modal');
    await page.goto(`/chats/${chats[0].conversation.id}`);
    await hydrated(page);
    // Past the modal's 40 s (not much further: each second the page tells the server the conversation is open).
    await page.clock.fastForward('00:45');
    await expect(modal).toHaveCount(0);
    await page.getByTestId('message-input').fill('Hi! Lovely, thank you');
    await expect(page.getByTestId('send-button')).toBeEnabled();

    // In the members list, a field with the focus holds the modal back; once the member leaves it, it comes.
    await page.goto('/members');
    await hydrated(page);
    await openSearchFilters(page);
    await page.locator('#search-min-age').focus();
    await page.clock.fastForward('00:45');
    await expect(modal).toHaveCount(0);
    await page.locator('#search-min-age').blur();
    await page.clock.fastForward('00:06');
    await expect(modal).toBeVisible();
  });
});

test('the keyboard: a skip link comes first and leads to the page; focus on the dark top bar is a visible white ring', async ({ page }) => {
  await asNewVisitor(page);
  await page.goto('/members');
  await expectSkipLinkFirst(page);

  // Onwards into the top bar: its links show a white 2 px ring.
  await page.locator('[data-testid="top-nav"] a').first().focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const ring = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return { inBar: Boolean(el.closest('[data-testid="top-nav"]')), style: style.outlineStyle, width: style.outlineWidth, color: style.outlineColor };
  });
  expect(ring).toEqual({ inBar: true, style: 'solid', width: '2px', color: 'rgb(255, 255, 255)' });
});
