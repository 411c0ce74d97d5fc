import type { Browser, Page } from '@playwright/test';
import { base32Decode, hotp, totpStep } from '../../server/staff/totp.ts';
import { expect } from './fixtures.ts';
import { newMember } from './account-helpers.ts';

/** The admin of every site that tests/e2e/global-setup.ts made with `npm run staff:create` and `staff:token`. */
export const STAFF = {
  email: process.env.E2E_STAFF_EMAIL ?? '',
  password: process.env.E2E_STAFF_PASSWORD ?? '',
  totpSecret: process.env.E2E_STAFF_TOTP ?? '',
  /** Ten codes, each good once: a test that signs in with one takes its own index. */
  recoveryCodes: (process.env.E2E_STAFF_RECOVERY ?? '').split(','),
};

/** The code an authenticator app shows now for the staff member's secret (RFC 6238). */
export const currentCode = () => hotp(base32Decode(STAFF.totpSecret), totpStep(new Date()));

/** The console's first step: e-mail and password, which leads to the code's form. */
export async function enterPassword(page: Page, password = STAFF.password) {
  await page.getByLabel('E-mail address').fill(STAFF.email);
  await page.getByLabel('Password').fill(password);
  await page.getByTestId('console-login-next').click();
}

/** Both steps with a code (a TOTP code or a recovery code); ends on the console's overview. */
export async function signInToConsole(page: Page, code: string) {
  await page.goto('/console/login');
  await enterPassword(page);
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByTestId('console-login-submit').click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByTestId('console-staff')).toContainText('Ada Admin');
}

/**
 * The page acts as a staff member through a staff API token, which the console accepts as it accepts a session: the
 * admin of every site (default), the second moderator (`moderator`) or finance staff of every site (`finance`), all
 * made by tests/e2e/global-setup.ts.
 */
export async function asStaff(page: Page, viewport?: { width: number; height: number }, who: 'admin' | 'moderator' | 'finance' = 'admin') {
  const token = { admin: process.env.E2E_STAFF_TOKEN, moderator: process.env.E2E_MODERATOR_TOKEN, finance: process.env.E2E_FINANCE_TOKEN }[who];
  if (!token) throw new Error(`The ${who} token is not set: tests/e2e/global-setup.ts makes it`);
  if (viewport) await page.setViewportSize(viewport);
  await page.context().setExtraHTTPHeaders({ authorization: `Bearer ${token}` });
}

/**
 * Elements that stick out past the screen's right edge, but inside a scrolling table, and the page's own sideways
 * scrolling (a phone pans the screen over anything that widens the page, even what is visually hidden): none on a page
 * that fits.
 */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => !el.closest('.table-responsive') && el.getBoundingClientRect().right > width + 1)
      .map((el) => `${el.tagName}.${el.className}`);
    const scrolls = document.documentElement.scrollWidth > width + 1 ? [`page ${document.documentElement.scrollWidth} px wide`] : [];
    return [...wide, ...scrolls];
  });
}

/** Two members of their own; the first reports the second's profile through the API (spam, with `text`). */
export async function reported(browser: Browser, project: string, text = 'Adverts for another site in the about text') {
  const reporter = await newMember(browser, 'queue-reporter', project);
  const target = await newMember(browser, 'queue-reported', project);
  const made = await reporter.page.request.post('/api/report.php', { data: { profile_id: target.id, kind: 'profile', reason: 'spam', text } });
  expect(made.status(), await made.text()).toBe(201);
  return { reporter, target };
}
