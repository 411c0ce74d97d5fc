import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * The strict style policy's checks (docs/decisions/052), shared by the pages' tests: what the browser refuses under
 * the policy (each refusal is a `securitypolicyviolation` event and a console report), and whether a page looks as
 * designed (the app's stylesheet and the site's colours apply).
 */

declare global {
  interface Window { cspViolations?: string[] }
}

/** The site's primary colour as the pages use it (its accessible shade, common/site-theme.ts). */
export const MAIN_PRIMARY = '#0d7c7d';
/** The page background of app.scss: the app's stylesheet applies. */
const PAGE_BACKGROUND = 'rgb(246, 243, 248)';

/**
 * Records what the policy refuses: the documents' violation events (an init script, so from the first byte of each
 * page on) and the console's reports. `check` reads the current document's events; `all` is every one so far.
 */
export async function watchPolicy(page: Page) {
  const reported: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) reported.push(`${page.url()}: ${message.text()}`);
  });
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations!.push(`${e.effectiveDirective} refused ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber}) ${e.sample}`);
    });
  });
  const events: string[] = [];
  return {
    /** This document's violations, collected before the next navigation. */
    async check(what: string) {
      const found = await page.evaluate(() => window.cspViolations ?? []);
      events.push(...found.map((v) => `${what}: ${v}`));
    },
    all: () => [...events, ...reported],
  };
}

export const computed = (page: Page, selector: string, property: string) =>
  page.locator(selector).first().evaluate((el, p) => getComputedStyle(el).getPropertyValue(p).trim(), property);

/** The page looks styled: the app's stylesheet and the site's colours apply. */
export async function expectStyled(page: Page, primary: string, what: string) {
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bs-primary').trim()), `${what}: --bs-primary`).toBe(primary);
  expect(await computed(page, 'body', 'background-color'), `${what}: the page background`).toBe(PAGE_BACKGROUND);
  // The site's colours come from its stylesheet, loaded from this server.
  const sheet = await page.evaluate(() => [...document.styleSheets].find((s) => s.href && new URL(s.href).pathname === '/site.css')?.cssRules.length ?? 0);
  expect(sheet, `${what}: /site.css applied`).toBeGreaterThan(10);
}

export type PolicyWatch = Awaited<ReturnType<typeof watchPolicy>>;
