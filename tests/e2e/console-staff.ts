import type { Page } from '@playwright/test';
import { base32Decode, hotp, totpStep } from '../../server/staff/totp.ts';
import { expect } from './fixtures.ts';

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

/** Acts as the admin of every site through its staff API token, which the console accepts as it accepts a session. */
export async function asStaff(page: Page, viewport = { width: 1280, height: 900 }) {
  const token = process.env.E2E_STAFF_TOKEN;
  if (!token) throw new Error('E2E_STAFF_TOKEN is not set: tests/e2e/global-setup.ts makes it');
  await page.setViewportSize(viewport);
  await page.context().setExtraHTTPHeaders({ authorization: `Bearer ${token}` });
}
