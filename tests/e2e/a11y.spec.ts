import type { Page } from '@playwright/test';
import { accessibilityViolations, expect, expectAccessible, hydrated, test } from './fixtures.ts';
import { asNewVisitor, demoMembers, likeFrom, signUpByApi } from './account-helpers.ts';
import { expectStyled, MAIN_PRIMARY, watchPolicy } from './page-policy.ts';

/**
 * Every page of the app, at both widths (the desktop and mobile projects), checked with axe-core
 * against WCAG 2.2 A/AA (docs/decisions/040). A page fails on any violation. Screens that only show
 * in a flow (time-bonus modal, like overlay, icebreaker, sign-up steps) are checked where their own
 * tests take their screenshot (the `shot` fixture runs the same check). Each page is also checked under the strict
 * style policy on the same visit (docs/decisions/052, tests/e2e/strict-csp.spec.ts): nothing refused, and it looks
 * styled.
 */

// Each test makes its own visitor or member: they run side by side.
test.describe.configure({ mode: 'parallel' });

type Ready = (page: Page) => Promise<void>;

/**
 * Opens each page (any status), checks it once it runs in the browser, and fails with every page's violations
 * together; then with what the strict style policy refused on any of them.
 */
async function checkAll(page: Page, pages: [string, Ready?][], after?: (path: string) => Promise<string[]>) {
  const watch = await watchPolicy(page);
  const found: string[] = [];
  for (const [path, ready] of pages) {
    await page.goto(path);
    await hydrated(page);
    if (ready) await ready(page);
    await expectStyled(page, MAIN_PRIMARY, path);
    const report = await accessibilityViolations(page);
    if (report.length) found.push(`${path}:\n${report.join('\n')}`);
    if (after) found.push(...(await after(path)));
    await watch.check(path);
  }
  expect(found, `accessibility violations:\n${found.join('\n')}`).toEqual([]);
  expect(watch.all(), 'refused by the strict style policy').toEqual([]);
}

const visible = (testId: string) => async (page: Page) => {
  await expect(page.getByTestId(testId).first()).toBeVisible();
};

async function demoProfileId(page: Page): Promise<number> {
  const id = (await demoMembers(page.request)).find((p) => p.main_image)?.id;
  expect(id).toBeDefined();
  return id!;
}

test('the entry warning is an accessible dialog that holds the keyboard focus', { tag: '@phone' }, async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleName(/.+/);
  await expectAccessible(page, 'entry warning');
  // Tab stays within the dialog (past its last control the modal takes the focus back), and its buttons work by keyboard.
  const inDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role=dialog]')));
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    await expect.poll(inDialog).toBe(true);
  }
  await page.getByTestId('entry-warning-accept').focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
});

test('the new-like overlay holds the focus, closes with Escape and gives the focus back', async ({ page, browser }, info) => {
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'a11y-overlay', info.project.name);
  const me = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
  await likeFrom(browser, me, 'a11y-overlay-liker', info.project.name);
  await page.goto('/members');
  const overlay = page.getByTestId('like-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay).toHaveAccessibleName(/.+/);
  await expect(overlay.getByTestId('like-overlay-action')).toBeFocused();
  await expectAccessible(page, 'like overlay');
  const inOverlay = () => page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid=like-overlay]')));
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await inOverlay()).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await inOverlay()).toBe(true);
  await page.keyboard.press('Escape');
  await expect(overlay).toBeHidden();
});

/** The pages a visitor reaches, in three groups that run side by side. */
const VISITOR_PAGES: Record<string, (id: number) => [string, Ready?][]> = {
  'the visitor pages and the 404 page': (id) => [
    ['/', visible('cta-signup')],
    ['/members', visible('profile-card')],
    [`/members/${id}`],
    ['/signup', visible('signup-flow')],
    [`/members/${id}/signup`, visible('signup-flow')],
    ['/signup-matches'],
    ['/login'],
    ['/reset-password'],
    ['/reset-password/do?token=nope'],
    ['/pricing'],
    ['/complaints'],
    ['/account-deleted'],
    ['/activate/done'],
    ['/activate/error'],
    ['/no-such-page-here/at-all'],
  ],
  'the static pages and the member landing pages': (id) => [
    ...['terms', 'privacy', 'cookies', 'ban', 'return-policy', 'faq', 'service'].map((p): [string] => [`/pages/${p}`]),
    [`/members/${id}/landing`],
    [`/members/${id}/landing2`],
    [`/members/${id}/landing3`],
  ],
  'the landers': () => ['alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'tinderswipe', 'transitionsvideolanding', 'video']
    .map((l): [string] => [`/landers/${l}`]),
};

for (const [group, pages] of Object.entries(VISITOR_PAGES)) {
  test(`${group} have no accessibility violations`, { tag: '@phone' }, async ({ page }) => {
    test.setTimeout(180_000);
    await asNewVisitor(page);
    await checkAll(page, pages(await demoProfileId(page)));
  });
}

test('the members area has no accessibility violations', { tag: '@phone' }, async ({ page, browser }, info) => {
  test.setTimeout(240_000);
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'a11y', info.project.name);
  const id = await demoProfileId(page);
  // A like from another member, so the likes pages have someone to show.
  const me = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
  await likeFrom(browser, me, 'a11y-liker', info.project.name);

  const pages: [string, Ready?][] = [
    // The new like is announced on arrival (the overlay loads with it): checked there, then closed (below).
    ['/members', async (p) => { await visible('profile-card')(p); await visible('like-overlay')(p); }],
    [`/members/${id}`],
    // A first conversation opens with the icebreaker dialog: checked once it is there.
    [`/members/${id}/chat`, async (p) => { await visible('message-input')(p); await visible('icebreaker')(p); }],
    ['/chats'],
    ['/likes'],
    ['/likes/given'],
    ['/likes/matches'],
    ['/swipe-game', visible('swipe-card')],
    ['/match-finder'],
    ['/profile'],
    ['/notifications'],
    ['/credits', visible('package')],
    ['/premium'],
    ['/transactions'],
    ['/directdebit'],
    ['/delete-account'],
    ['/credits/repeat-order'],
    ['/complete-signup'],
    ['/lang-config'],
  ];
  // The new-like overlay shows on the first page of the members area: checked there, then closed.
  await checkAll(page, pages, async (path) => {
    const overlay = page.getByTestId('like-overlay');
    if (!(await overlay.isVisible())) return [];
    const report = await accessibilityViolations(page);
    await page.keyboard.press('Escape');
    await expect(overlay).toBeHidden();
    return report.length ? [`${path} with the like overlay:\n${report.join('\n')}`] : [];
  });
});
