import type { Locator, Page } from '@playwright/test';
import { expect, hydrated, test } from './fixtures.ts';
import { activate, asNewVisitor, likeFrom, newMember, signUpByApi } from './account-helpers.ts';

/**
 * The product's motion (docs/decisions/086): a like's heart beats, the like / match overlay comes in, and a message
 * that arrives in an open conversation rises into place. Each runs only where the system asks for no less motion
 * (`prefers-reduced-motion: no-preference`), for the length a motion token gives; with `reduce` nothing moves.
 */

/** The CSS animation an element runs (or ran): its name and its length in ms ('none' when it has none). */
const animationOf = (locator: Locator) => locator.evaluate((el) => {
  const style = getComputedStyle(el);
  return { name: style.animationName, ms: Math.round(Number.parseFloat(style.animationDuration) * 1000) };
});

/** A motion token's duration in ms, as the page defines it (`420ms`, or `0.42s` as the browser may put it). */
const token = async (page: Page, name: string) => {
  const value = await page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
  return Math.round(Number.parseFloat(value) * (value.endsWith('ms') ? 1 : 1000));
};

async function dismissEntryWarning(page: Page) {
  await page.addInitScript(() => localStorage.setItem('hide-site-entry-warning', String(Math.floor(Date.now() / 1000))));
}

/** A like on the swipe lander: the heart that gave it. */
async function heartAfterLike(page: Page): Promise<Locator> {
  await page.goto('/landers/tinderswipe');
  await hydrated(page);
  await page.getByTestId('swipe-like').click();
  const heart = page.getByTestId('swipe-like').locator('svg');
  await expect(heart).toHaveClass(/like-pop/);
  return heart;
}

/** A member's like on another member's profile: the like button's heart, remounted by the like. */
async function heartOnProfile(page: Page, browser: import('@playwright/test').Browser, project: string): Promise<Locator> {
  const other = await newMember(browser, 'motion-liked', project);
  await other.close();
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'motion-profile', project);
  await page.goto(`/members/${other.id}`);
  await hydrated(page);
  const heart = page.getByTestId('like-button').locator('svg');
  await expect(heart).not.toHaveClass(/like-pop/);
  await page.getByTestId('like-button').click();
  await expect(page.getByTestId('like-button')).toHaveText(/Unlike/);
  await expect(heart).toHaveClass(/like-pop/);
  return heart;
}

/** The visitor's kept like (it would become a real one at sign-up) is not the member's business in this test. */
const forgetVisitor = (page: Page) => page.evaluate(() => localStorage.clear());

/** A member who receives a like (the overlay) and then a message in the open conversation with its sender. */
async function likedAndWrittenTo(page: Page, browser: import('@playwright/test').Browser, project: string) {
  const headers = await asNewVisitor(page);
  const { email } = await signUpByApi(page, headers, 'motion', project);
  const me = ((await (await page.request.get('/api/user.php')).json()) as { user: { id: number } }).user.id;
  await likeFrom(browser, me, 'motion-liker', project);
  await page.goto('/members');
  const overlay = page.getByTestId('like-overlay');
  await expect(overlay).toBeVisible();
  const overlayMotion = { ground: await animationOf(overlay), thumb: await animationOf(overlay.locator('.like-overlay-thumb')), action: await animationOf(overlay.getByTestId('like-overlay-action')) };
  await page.keyboard.press('Escape');
  await expect(overlay).toBeHidden();
  // Only confirmed members can be written to.
  await activate(page, email);

  // The conversation is open when their message comes in.
  const writer = await newMember(page.context().browser()!, 'motion-writer', project);
  await page.goto(`/members/${writer.id}/chat`);
  await expect(page.locator('html')).toHaveAttribute('data-live', 'open');
  const sent = await writer.page.request.post('/api/messages.php', {
    data: { profile_id: me, text: 'Hello there, nice to see you here!' }, headers: { 'idempotency-key': `motion-${project}-${Date.now()}` },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  await writer.close();
  const message = page.getByTestId('message').filter({ hasText: 'Hello there' });
  await expect(message).toBeVisible({ timeout: 20_000 });
  const messageMotion = await animationOf(message);
  const arrivedClass = await message.evaluate((el) => el.classList.contains('chat-bubble-arrived'));
  // Opened again, the conversation's history stands still.
  await page.reload();
  await expect(message).toBeVisible();
  await expect(message).not.toHaveClass(/chat-bubble-arrived/);
  return { overlayMotion, messageMotion, arrivedClass };
}

test.describe('with motion', () => {
  test.use({ reducedMotion: 'no-preference' });

  test('a like\'s heart beats, the overlay comes in and a new message rises into the conversation, for the tokens\' durations', async ({ page, browser }, info) => {
    await dismissEntryWarning(page);
    const heart = await heartAfterLike(page);
    const slow = await token(page, '--amora-duration-slow');
    expect(slow).toBeGreaterThan(0);
    expect(await animationOf(heart)).toEqual({ name: 'like-pop', ms: slow });
    await forgetVisitor(page);

    const { overlayMotion, messageMotion, arrivedClass } = await likedAndWrittenTo(page, browser, info.project.name);
    expect(overlayMotion.ground).toEqual({ name: 'like-overlay-in', ms: await token(page, '--amora-duration-base') });
    expect(overlayMotion.thumb).toEqual({ name: 'like-overlay-pop', ms: slow });
    expect(overlayMotion.action.name).toBe('like-overlay-rise');
    expect(arrivedClass).toBe(true);
    expect(messageMotion).toEqual({ name: 'chat-bubble-arrive', ms: slow });
  });

  test('a like on a profile beats the like button\'s heart once', async ({ page, browser }, info) => {
    const heart = await heartOnProfile(page, browser, info.project.name);
    expect(await animationOf(heart)).toEqual({ name: 'like-pop', ms: await token(page, '--amora-duration-slow') });
  });
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('nothing moves: no beat, no entrance, no rise, and no animation runs', async ({ page, browser }, info) => {
    await dismissEntryWarning(page);
    const heart = await heartAfterLike(page);
    expect((await animationOf(heart)).name).toBe('none');
    expect(await heart.evaluate((el) => el.getAnimations().length)).toBe(0);
    await forgetVisitor(page);

    const { overlayMotion, messageMotion, arrivedClass } = await likedAndWrittenTo(page, browser, info.project.name);
    expect(overlayMotion.ground.name).toBe('none');
    expect(overlayMotion.thumb.name).toBe('none');
    expect(overlayMotion.action.name).toBe('none');
    // The message is marked as arrived; only the motion is left out.
    expect(arrivedClass).toBe(true);
    expect(messageMotion.name).toBe('none');
  });

  test('a like on a profile leaves the heart still', async ({ page, browser }, info) => {
    const heart = await heartOnProfile(page, browser, info.project.name);
    expect((await animationOf(heart)).name).toBe('none');
    expect(await heart.evaluate((el) => el.getAnimations().length)).toBe(0);
  });
});
