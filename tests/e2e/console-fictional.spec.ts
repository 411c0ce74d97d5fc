import sharp from 'sharp';
import { expect, test } from './fixtures.ts';
import { asStaff } from './console-staff.ts';
import { activate, asNewVisitor, newMember, paidOrder, signUpByApi } from './account-helpers.ts';

/**
 * Fictional profiles end to end at 1280 px: staff make one in the console, a member meets it marked as fictional,
 * writes to it, staff answer from the workspace and the answer reaches the member's open chat live; the member then
 * hides fictional profiles and it leaves their search.
 */
test('staff create a fictional profile, the member meets it marked, staff answer it live, and the member hides it', async ({ browser, page, shot }, info) => {
  test.slow();
  await asStaff(page, { width: 1280, height: 900 });
  const name = `Fenna${Date.now().toString(36).slice(-5)}`;

  // The staff member makes the profile on the site the member uses.
  await page.goto('/console/fictional/profiles');
  const site = page.getByLabel('Site');
  const option = site.locator('option', { hasText: '(localhost)' });
  await site.selectOption(await option.getAttribute('value'));
  await page.getByRole('button', { name: 'Show' }).click();
  await page.getByTestId('fictional-new').click();
  const form = page.getByTestId('fictional-form');
  for (const [label, value] of [['Name', name], ['Date of birth', '1928-06-01'], ['About me', 'Retired sailor; loves the sea and long letters.'], ['Notes', 'Lives in Zeeland; has a cat called Mo.']]) {
    await form.getByLabel(label).fill(value);
  }
  await form.getByLabel('Gender').selectOption('female');
  await form.getByLabel('Looking for').selectOption('female');
  await shot('console-fictional-profile');
  await page.getByTestId('fictional-save').click();
  await expect(page.getByTestId('fictional-saved')).toBeVisible();
  const fictionalId = Number(page.url().match(/profiles\/(\d+)/)![1]);
  // A photo, through the members' photo pipeline.
  const photo = await sharp({ create: { width: 480, height: 600, channels: 3, background: '#2a7f9e' } }).jpeg().toBuffer();
  await page.getByLabel('Add a photo').setInputFiles({ name: 'fenna.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByTestId('fictional-photo-upload').click();
  await expect(page.getByTestId('fictional-photos').locator('img')).toHaveCount(1);

  // The member: activated, with credits, meets the profile marked on its page and on the search card.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const member = await context.newPage();
  const headers = await asNewVisitor(member);
  const { email } = await signUpByApi(member, headers, 'fictional-member', info.project.name);
  await activate(member, email);
  await paidOrder(member, `fictional-order-${Date.now()}`);
  await member.goto(`/members/${fictionalId}`);
  await expect(member.getByTestId('fictional-warning')).toBeVisible();
  const search = `/members?gender=female&min_age=97&max_age=99&country=`;
  await member.goto(search);
  const card = member.getByTestId('profile-card').filter({ hasText: name });
  await expect(card.getByTestId('fictional-mark')).toBeVisible();

  // The chat: marked in its header; the member writes, staff answer from the workspace, the answer arrives live.
  await member.goto(`/members/${fictionalId}/chat`);
  await expect(member.locator('html')).toHaveAttribute('data-live', 'open');
  await expect(member.getByTestId('fictional-mark').first()).toBeVisible();
  // A first conversation opens with the icebreaker's choice; the member writes their own words.
  await member.getByTestId('icebreaker-own').click();
  await member.getByTestId('message-input').fill('Hello Fenna, how is the sea today?');
  await member.getByTestId('send-button').click();
  await expect(member.getByTestId('message')).toHaveCount(1);

  await page.goto('/console/fictional');
  const row = page.getByTestId('answering-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.getByTestId('queue-open').click();
  const opened = page.getByTestId('answering-opened');
  await expect(opened.getByTestId('answering-messages')).toContainText('how is the sea today?');
  await page.getByLabel(`Answer as ${name}`).fill('Calm and blue! Where do you like to sail?');
  await shot('console-fictional-answer');
  await page.getByTestId('answering-send').click();
  await expect(page.getByTestId('answering-sent')).toBeVisible();
  await expect(member.getByTestId('message')).toHaveCount(2);
  await expect(member.getByTestId('message').last()).toContainText('Where do you like to sail?');

  // The member hides fictional profiles: it leaves their search.
  await member.goto('/notifications');
  await member.getByTestId('hide-fictional-switch').check();
  await expect.poll(async () => (await (await member.request.get('/api/notifications.php')).json()).hide_fictional).toBe(true);
  await member.goto(search);
  await expect(member.getByTestId('profile-card').filter({ hasText: name })).toHaveCount(0);
  await context.close();
});

test('a member staff mark fictional is marked in the like overlay and in the swipe deck', async ({ browser, page }, info) => {
  test.slow();
  // The viewer: a woman looking for men, as members sign up by default.
  const viewer = await newMember(browser, 'fictional-viewer', info.project.name);
  // Xander: a man with an approved photo (the deck deals members with a photo first, the most recently active first).
  const xContext = await browser.newContext();
  const x = await xContext.newPage();
  const headers = await asNewVisitor(x);
  const signedUp = await x.request.post('/api/signup.php', {
    headers, data: { email: `fictional-x.${info.project.name}.${Date.now()}@example.org`, name: 'Xander', password: 'first password', date_of_birth: '1985-05-05', gender: 'male', country: 'NL' },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(201);
  const xId = ((await signedUp.json()) as { user: { id: number } }).user.id;
  const jpeg = await sharp({ create: { width: 480, height: 600, channels: 3, background: '#7a4f9e' } }).jpeg().toBuffer();
  const uploaded = await x.request.post('/api/photos.php', { multipart: { photo: { name: 'x.jpg', mimeType: 'image/jpeg', buffer: jpeg } } });
  expect(uploaded.status()).toBe(201);
  const approved = await x.request.post('/api/moderation.php', {
    data: { id: ((await uploaded.json()) as { photo: { id: number } }).photo.id, action: 'approve' }, headers: { authorization: `Bearer ${process.env.E2E_STAFF_TOKEN}` },
  });
  expect(approved.status()).toBe(200);

  // A moderator marks him fictional from his console page, with a reason and a confirmation.
  await asStaff(page, { width: 1280, height: 900 });
  await page.goto(`/console/members/${xId}`);
  await page.locator('#fictional-reason').fill('Run by the site team');
  await page.getByTestId('action-mark_fictional').click();
  await page.getByTestId('confirm-mark_fictional-yes').click();
  await expect(page.getByTestId('action-unmark_fictional')).toBeVisible();

  // He likes the viewer: the like overlay shows him marked.
  expect((await x.request.post('/api/like.php', { data: { profile_id: viewer.id } })).status()).toBe(200);
  await xContext.close();
  await viewer.page.goto('/members');
  const overlay = viewer.page.getByTestId('like-overlay');
  await expect(overlay).toHaveAttribute('data-profile-id', String(xId));
  await expect(overlay.getByTestId('fictional-mark')).toBeVisible();
  await viewer.page.keyboard.press('Escape');

  // The swipe deck deals him marked too.
  await viewer.page.goto('/swipe-game');
  const card = viewer.page.getByTestId('swipe-card').filter({ hasText: 'Xander' });
  await expect(card.getByTestId('fictional-mark')).toBeVisible();
  await viewer.close();
});
