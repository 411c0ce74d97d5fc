import sharp from 'sharp';
import { expect, test } from './fixtures.ts';
import { asStaff, reported } from './console-staff.ts';

/**
 * The console's moderation queues as a moderator works them: the browser tests' admin of every site
 * (tests/e2e/global-setup.ts) acts through its staff API token, which the console accepts as it accepts a session.
 * The rules behind them (claims, decisions, appeals by another moderator) are covered by server/moderation/reports.test.ts
 * and server/moderation/moderation.routes.test.ts.
 */

test('a moderator claims a report from the queue and decides it with a statement of reasons; the photo queue approves a photo', async ({ browser, page, shot }, info) => {
  const { reporter, target } = await reported(browser, info.project.name);
  await asStaff(page, { width: 1280, height: 900 });

  await page.goto('/console');
  await expect(page.getByTestId('console-nav-queues')).toContainText(/\d/);
  await page.getByTestId('console-nav-queues').click();
  await expect(page).toHaveURL(/\/console\/queues\/reports$/);
  await expect(page.getByTestId('queue-tab-reports')).toContainText(/\d/);
  const row = page.getByTestId('report-row').filter({ hasText: `#${target.id}` });
  await expect(row).toContainText('Spam or advertising');
  await expect(row).toContainText('Free');
  await shot('console-queue-reports');

  // Opening claims it: held by this moderator for ten minutes.
  await row.getByTestId('queue-open').click();
  const opened = page.getByTestId('report-opened');
  await expect(opened).toContainText('Adverts for another site in the about text');
  await expect(opened.getByTestId('held-by-me')).toBeVisible();
  await expect(page.getByTestId('report-row').filter({ hasText: `#${target.id}` }).getByTestId('held-by-me')).toBeVisible();
  // The reason's ground is chosen already; a profile report offers dismissing, removing the text or a ban.
  await expect(opened.getByLabel('Ground')).toHaveValue('terms_spam');
  await expect(opened.getByRole('button')).toHaveText(['Dismiss', 'Remove the about text', 'Ban the member']);
  await expect(opened.getByTestId('decide-remove_about')).toHaveAttribute('accesskey', 'r');
  await opened.getByLabel('Facts and circumstances (the member reads them)').fill('Links to a paid site in the about text.');
  await opened.getByTestId('decide-remove_about').click();
  const confirm = page.getByTestId('queue-confirm');
  await expect(confirm).toContainText(`Remove the about text: member #${target.id}`);
  await expect(confirm).toContainText('Spam, advertising and mass messages are not allowed.');
  await expect(confirm.getByTestId('queue-confirm-yes')).toBeFocused();
  await shot('console-queue-report-confirm');
  // Nothing is decided before the confirmation.
  expect((await (await target.page.request.get('/api/report.php')).json()).reports).toEqual([]);
  const mine = async () => ((await (await reporter.page.request.get('/api/report.php')).json()) as { reports: { status: string }[] }).reports;
  expect((await mine())[0].status).toBe('open');
  await page.keyboard.press('Enter');
  const done = page.getByTestId('queue-done');
  await expect(done).toContainText('The statement of reasons');
  await expect(page.getByTestId('report-row').filter({ hasText: `#${target.id}` })).toHaveCount(0);
  expect((await mine())[0].status).toBe('actioned');

  // The reported member reads the statement.
  const decisionId = await done.getAttribute('data-decision');
  const statement = await target.page.request.get(`/api/statement.php?id=${decisionId}`);
  expect(statement.status()).toBe(200);
  expect((await statement.json()).statement).toMatchObject({ restriction: 'text_removed', ground: 'terms_spam', facts: 'Links to a paid site in the about text.' });

  // The photo queue: a new member's photo, approved after the confirmation.
  const photo = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#c63' } }).jpeg().toBuffer();
  const upload = await target.page.request.post('/api/photos.php', { multipart: { photo: { name: 'p.jpg', mimeType: 'image/jpeg', buffer: photo } } });
  expect(upload.status()).toBe(201);
  const photoId = ((await upload.json()) as { photo: { id: number } }).photo.id;
  await page.getByTestId('queue-tab-photos').click();
  const item = page.locator(`[data-photo="profile-${photoId}"]`);
  await expect(item).toContainText(`#${target.id}`);
  await expect(item.getByRole('img')).toHaveJSProperty('complete', true);
  expect(await item.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // Opening holds the photo for this moderator; only then can it be decided.
  await expect(page.getByTestId('photo-opened')).toHaveCount(0);
  await item.getByTestId('queue-open').click();
  await expect(page.locator(`[data-photo="profile-${photoId}"]`).getByTestId('held-by-me')).toBeVisible();
  const photoCard = page.getByTestId('photo-opened');
  await expect(photoCard.getByTestId('decide-approve')).toHaveAttribute('accesskey', 'a');
  await shot('console-queue-photos');
  await photoCard.getByTestId('decide-approve').click();
  await expect(page.getByTestId('queue-confirm')).toContainText(`The photo of member #${target.id} is approved`);
  await page.getByTestId('queue-confirm-yes').click();
  await expect(page.getByTestId('queue-done')).toHaveText('The photo was approved.');
  await expect(page.locator(`[data-photo="profile-${photoId}"]`)).toHaveCount(0);

  // The member appeals; the appeal goes to another moderator than the one who decided, so this one's queue leaves it out.
  const appealed = await target.page.request.post('/api/appeal.php', { data: { id: Number(decisionId), text: 'The link was to my own blog, not an advert.' } });
  expect(appealed.status(), await appealed.text()).toBe(201);
  await page.getByTestId('queue-tab-appeals').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Moderation queues');
  await expect(page.getByTestId('appeal-row').filter({ hasText: `#${target.id}` })).toHaveCount(0);
  await shot('console-queue-appeals');
  await page.getByTestId('queue-tab-notices').click();
  await expect(page.getByTestId('queue-tab-notices')).toHaveClass(/active/);
  await shot('console-queue-notices');
  await reporter.close();
  await target.close();
});
