import sharp from 'sharp';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { asNewVisitor, newMember } from './account-helpers.ts';
import { asStaff, overflowing, reported } from './console-staff.ts';

/**
 * The reports, names and texts, appeals, DSA notices and photos queues as moderators work them, at 1280 px and (tagged
 * @phone) at 375 px: open (claim), decide after the confirmation, and nothing sticks out past the screen's edge or
 * widens the page (a phone would pan away from the buttons). The rules behind them are covered by
 * server/moderation/reports.test.ts, text-reviews.test.ts and photo-queue.test.ts.
 */
async function fits(page: Page) {
  expect(await overflowing(page)).toEqual([]);
}

test('@phone a moderator removes a new member\'s name; another moderator reverses it on appeal', async ({ browser, page, shot }, info) => {
  const member = await newMember(browser, 'text-queue', info.project.name);
  await asStaff(page);
  // Oldest first, 50 a page: the other tests' new members may stand before this one.
  const row = page.getByTestId('text-row').filter({ hasText: `#${member.id}` });
  for (let at = 1; at <= 20; at++) {
    await page.goto(`/console/queues/texts?page=${at}`);
    await expect(page.getByTestId('queue-tab-texts')).toContainText(/\d/);
    if (await row.count()) break;
  }
  await expect(row).toContainText('Display name');
  await expect(row).toContainText('Kim');
  await fits(page);
  await shot('console-queue-texts');

  await row.getByTestId('queue-open').click();
  const opened = page.getByTestId('text-opened');
  await expect(opened.getByTestId('text-old')).toHaveText('(new member)');
  await expect(opened.getByTestId('text-new')).toHaveText('Kim');
  await expect(opened.getByTestId('held-by-me')).toBeVisible();
  await opened.getByLabel('Ground').selectOption('terms_general');
  await opened.getByTestId('decide-remove').click();
  await expect(page.getByTestId('queue-confirm')).toContainText(`replaced by “#${member.id}”`);
  await fits(page);
  await shot('console-queue-texts-confirm');
  await page.getByTestId('queue-confirm-yes').click();
  const done = page.getByTestId('queue-done');
  await expect(done).toContainText('The statement of reasons');
  const decisionId = Number(await done.getAttribute('data-decision'));
  const name = async () => ((await (await member.page.request.get('/api/user.php')).json()) as { user: { profile: { name: string } } }).user.profile.name;
  expect(await name()).toBe(`#${member.id}`);

  // The member appeals; the admin's own decisions are not in the admin's appeals queue, so the second moderator decides.
  const appealed = await member.page.request.post('/api/appeal.php', { data: { id: decisionId, text: 'Kim is simply my first name.' } });
  expect(appealed.status(), await appealed.text()).toBe(201);
  await asStaff(page, undefined, 'moderator');
  await page.goto('/console/queues/appeals');
  const appeal = page.getByTestId('appeal-row').filter({ hasText: `#${member.id}` });
  await appeal.getByTestId('queue-open').click();
  await expect(page.getByTestId('appeal-opened')).toContainText('Kim is simply my first name.');
  await fits(page);
  await shot('console-queue-appeal-opened');
  await page.getByTestId('decide-reversed').click();
  await page.getByTestId('queue-confirm-yes').click();
  await expect(page.getByTestId('queue-done')).toHaveText('The decision was reversed and the member told.');
  expect(await name()).toBe('Kim');
  await member.close();
});

test('@phone a moderator decides a DSA notice and a photo after opening them', async ({ browser, page, shot }, info) => {
  const member = await newMember(browser, 'notice-queue', info.project.name);
  // A notice about the member's profile, sent through the complaints form by a visitor.
  const visitor = await browser.newPage();
  await asNewVisitor(visitor);
  await visitor.goto(`/complaints?kind=profile&id=${member.id}`);
  await visitor.getByTestId('notice-reason').selectOption('harassment');
  await visitor.getByTestId('notice-explanation').fill('Sends threatening messages.');
  await visitor.getByTestId('notice-name').fill('Vera Visitor');
  await visitor.getByTestId('notice-email').fill(`notice.queue.${info.project.name}.${Date.now()}@example.org`);
  await visitor.getByTestId('notice-bona-fide').check();
  await visitor.getByTestId('notice-submit').click();
  const reference = (await visitor.getByTestId('notice-reference').textContent()) ?? '';
  await visitor.close();

  await asStaff(page);
  await page.goto('/console/queues/notices');
  const row = page.getByTestId('notice-row').filter({ hasText: reference });
  await row.getByTestId('queue-open').click();
  const opened = page.getByTestId('notice-opened');
  await expect(opened).toContainText('Sends threatening messages.');
  await opened.getByLabel('Decision (the notifier reads it)').fill('Nothing against the rules was found.');
  await opened.getByTestId('decide-dismiss').click();
  await expect(page.getByTestId('queue-confirm')).toContainText('No action');
  await fits(page);
  await shot('console-queue-notice-confirm');
  await page.getByTestId('queue-confirm-yes').click();
  await expect(page.getByTestId('queue-done')).toBeVisible();
  await expect(page.getByTestId('notice-row').filter({ hasText: reference })).toHaveCount(0);

  // A photo of the member: opened (held), then rejected after the confirmation.
  const photo = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#36c' } }).jpeg().toBuffer();
  const upload = await member.page.request.post('/api/photos.php', { multipart: { photo: { name: 'p.jpg', mimeType: 'image/jpeg', buffer: photo } } });
  expect(upload.status()).toBe(201);
  const photoId = ((await upload.json()) as { photo: { id: number } }).photo.id;
  await page.getByTestId('queue-tab-photos').click();
  const item = () => page.locator(`[data-photo="profile-${photoId}"]`);
  await item().getByTestId('queue-open').click();
  await expect(item().getByTestId('held-by-me')).toBeVisible();
  const photoCard = page.getByTestId('photo-opened');
  await expect(photoCard.getByRole('img')).toHaveJSProperty('complete', true);
  await fits(page);
  await shot('console-queue-photo-opened');
  await photoCard.getByTestId('decide-reject').click();
  await expect(page.getByTestId('queue-confirm')).toContainText(`The photo of member #${member.id} is hidden.`);
  await fits(page);
  await page.getByTestId('queue-confirm-yes').click();
  await expect(page.getByTestId('queue-done')).toContainText('The photo was rejected');
  await expect(item()).toHaveCount(0);
  await member.close();
});

test('@phone a moderator opens a report and removes the about text after the confirmation', async ({ browser, page, shot }, info) => {
  const { reporter, target } = await reported(browser, info.project.name, 'Adverts in the about text');
  await asStaff(page);
  await page.goto('/console/queues/reports');
  const row = page.getByTestId('report-row').filter({ hasText: `#${target.id}` });
  await fits(page);
  await row.getByTestId('queue-open').click();
  const opened = page.getByTestId('report-opened');
  await expect(opened).toContainText('Adverts in the about text');
  await expect(opened.getByTestId('held-by-me')).toBeVisible();
  // Every control of the card can be reached and tapped: none lies under another.
  await opened.getByLabel('Facts and circumstances (the member reads them)').fill('Links to a paid site.');
  await fits(page);
  await shot('console-queue-report-opened');
  await opened.getByTestId('decide-remove_about').click();
  await expect(page.getByTestId('queue-confirm')).toContainText(`Remove the about text: member #${target.id}`);
  await fits(page);
  await shot('console-queue-report-confirm');
  await page.getByTestId('queue-confirm-yes').click();
  await expect(page.getByTestId('queue-done')).toContainText('The statement of reasons');
  await expect(page.getByTestId('report-row').filter({ hasText: `#${target.id}` })).toHaveCount(0);
  const mine = (await (await reporter.page.request.get('/api/report.php')).json()) as { reports: { status: string }[] };
  expect(mine.reports[0].status).toBe('actioned');
  await reporter.close();
  await target.close();
});
