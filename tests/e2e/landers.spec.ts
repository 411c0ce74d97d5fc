import type { Locator, Page, TestInfo } from '@playwright/test';
import { acceptEntryWarning, expect, test } from './fixtures.ts';

const TRACKING = 'network=partner&sub1=spring';

/** Every portrait a lander shows has loaded (they are the page's substance). */
async function expectPhotosLoaded(page: Page, selector = '[data-testid="lander-profiles"] img') {
  const images = page.locator(selector);
  await expect(images.first()).toBeVisible();
  for (const img of await images.all()) {
    // Scrolled by the page itself: some portraits move for good (an orbit), so they never count as stable.
    await img.evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' }));
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  }
  // Back to the first view, also in horizontally scrolling strips.
  await page.evaluate(() => {
    document.querySelectorAll('ul, nav').forEach((el) => el.scrollTo({ left: 0, behavior: 'instant' }));
    window.scrollTo({ top: 0, behavior: 'instant' });
  });
}

/**
 * A call to action leads into sign-up with the campaign's parameters: smartphones get the sign-up page
 * (its URL keeps them), larger screens the sign-up modal; the first-touch cookie holds them either way.
 */
async function expectSignup(page: Page, info: TestInfo, cta: Locator, member = false) {
  await cta.click();
  if (info.project.name === 'mobile') {
    await expect(page).toHaveURL(member ? new RegExp(`/members/\\d+/signup\\?${TRACKING}$`) : new RegExp(`/signup\\?${TRACKING}$`));
    await expect(page.getByTestId('signup-flow')).toBeVisible();
  } else {
    await expect(page.getByTestId('signup-modal')).toBeVisible();
  }
  const tracking = (await page.context().cookies()).find((c) => c.name === 'amora.tracking');
  expect(JSON.parse(Buffer.from(tracking!.value.split('.')[0], 'base64url').toString())).toEqual({ network: 'partner', sub1: 'spring' });
}

test('gallery: a portrait grid with filters; a portrait signs up in that member’s context', { tag: '@phone' }, async ({ page, shot }, info) => {
  await page.goto(`/landers/gallery?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fresh faces near you');
  await expect(page.getByTestId('lander-profile')).toHaveCount(13);
  await expectPhotosLoaded(page);
  await shot('lander-gallery');
  await page.getByRole('link', { name: 'Women', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/landers/gallery/women\\?${TRACKING}$`));
  await expect(page.getByRole('link', { name: 'Women', exact: true })).toHaveAttribute('aria-current', 'page');
  await expectSignup(page, info, page.getByTestId('lander-profile').first(), true);
});

test('maplanding: members pinned on a dot map drawn from shipped data; the call to action signs up', async ({ page, shot }, info) => {
  const outside: string[] = [];
  page.on('request', (r) => { if (!r.url().startsWith(new URL(page.url() || 'http://localhost').origin) && !r.url().startsWith('http://localhost')) outside.push(r.url()); });
  await page.goto(`/landers/maplanding/nl?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Who’s single near you?');
  await expect(page.locator('img.map-dots')).toHaveAttribute('src', '/landers/maps/nl.svg');
  await expect.poll(() => page.locator('img.map-dots').evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  expect(await page.getByTestId('map-pin').count()).toBeGreaterThan(2);
  await expectPhotosLoaded(page, '[data-testid="map-pin"] img');
  await shot('lander-maplanding');
  expect(outside, 'no tile server or other outside request').toEqual([]);
  await expectSignup(page, info, page.getByTestId('lander-signup'));
});

test('alonetonight: a night sky, faces to greet and three moods that all lead into sign-up', async ({ page, shot }, info) => {
  await page.goto(`/landers/alonetonight?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Alone tonight?');
  await expect(page.getByTestId('lander-profile')).toHaveCount(10);
  await expectPhotosLoaded(page);
  await shot('lander-alonetonight');
  await expect(page.getByTestId('lander-signup')).toHaveCount(3);
  await expectSignup(page, info, page.getByRole('link', { name: 'A date this week' }));
});

test('collagelanding: taped snapshots around an invitation; the call to action signs up', { tag: '@phone' }, async ({ page, shot }, info) => {
  await page.goto(`/landers/collagelanding/women?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Someone here is your type');
  // Phones show six snapshots, wide screens twelve.
  await expect(page.getByTestId('lander-profile').filter({ visible: true })).toHaveCount(info.project.name === 'mobile' ? 6 : 12);
  await expectPhotosLoaded(page, '[data-testid="lander-profile"]:visible img');
  await shot('lander-collagelanding');
  await expectSignup(page, info, page.getByTestId('lander-signup'));
});

test('iconslanding: members orbit a heart, icon tiles say what the site does; the call to action signs up', async ({ page, shot }, info) => {
  await page.goto(`/landers/iconslanding?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dating, made simple');
  await expect(page.getByTestId('lander-profile')).toHaveCount(6);
  await expectPhotosLoaded(page);
  await expect(page.locator('.icons-tile')).toHaveCount(6);
  await shot('lander-iconslanding');
  await expectSignup(page, info, page.getByTestId('lander-signup'));
});

test('socialnetwork: stories, a composer and members’ posts; liking a post signs up in that member’s context', async ({ page, shot }, info) => {
  await page.goto(`/landers/socialnetwork?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your new circle');
  await expect(page.getByTestId('lander-profile')).toHaveCount(3);
  await expectPhotosLoaded(page, '.social-stories img, [data-testid="lander-profiles"] img');
  await shot('lander-socialnetwork');
  await expectSignup(page, info, page.locator('.social-post').first().getByRole('link', { name: 'Like' }), true);
});

test('transitionsvideolanding: a reel of members played by CSS alone; the call to action signs up', async ({ page, shot }, info) => {
  await page.goto(`/landers/transitionsvideolanding?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Real people. Real chemistry.');
  await expect(page.getByTestId('lander-profile')).toHaveCount(5);
  await expectPhotosLoaded(page);
  // The reel moves by CSS animations alone: stopped at one moment of its timeline the first scene is on
  // screen, a few seconds later the second has taken over. (Seeking the timeline, not waiting for the
  // clock, keeps this true on a busy machine.)
  const at = (ms: number) => page.evaluate((t) => {
    const reel = [...document.querySelectorAll('[class*="reel-scene-"]')].flatMap((el) => el.getAnimations());
    for (const animation of reel) { animation.pause(); animation.currentTime = t; }
    return [0, 1].map((i) => Number(getComputedStyle(document.querySelector(`.reel-scene-${i}`)!).opacity));
  }, ms);
  const moments = [];
  for (let ms = 0; ms <= 20_000; ms += 500) moments.push({ ms, opacity: await at(ms) });
  const first = moments.find((m) => m.opacity[0] > 0.9 && m.opacity[1] < 0.1);
  expect(first, 'a moment with the first scene alone on screen').toBeDefined();
  const second = moments.find((m) => m.ms > first!.ms && m.opacity[1] > 0.9 && m.opacity[0] < 0.1);
  expect(second, 'a later moment with the second scene alone on screen').toBeDefined();
  expect(second!.ms - first!.ms).toBeLessThanOrEqual(8_000);
  await at(first!.ms);
  await shot('lander-transitionsvideolanding');
  await expectSignup(page, info, page.getByTestId('lander-signup'));
});

test('video: a member\'s photo shown as a photo (no player, clock or progress bar); the button messages them', async ({ page, shot }, info) => {
  await page.goto(`/landers/video?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Put a face to the name');
  await expect(page.getByTestId('lander-profile')).toHaveCount(5);
  await expectPhotosLoaded(page);
  await expect(page.getByTestId('video-tag')).toHaveText('Photo');
  await shot('lander-video');
  await expectSignup(page, info, page.getByTestId('lander-signup'), true);
});

test('tinderswipe: a drag passes on a card, a like (no match: nobody liked the visitor) signs up with that member', { tag: '@phone' }, async ({ page, shot }, info) => {
  await page.goto(`/landers/tinderswipe?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Swipe, match, chat');
  await expectPhotosLoaded(page, '[data-testid="swipe-card"] img');
  await shot('lander-tinderswipe');
  const cards = page.getByTestId('swipe-card');
  const first = await cards.last().locator('img').getAttribute('alt');
  // Drag the top card to the left: it is passed and the next one comes up.
  const box = (await cards.last().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 - 160, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(cards.last().locator('img')).not.toHaveAttribute('alt', first!);
  const second = await cards.last().locator('img').getAttribute('alt');
  await page.getByTestId('swipe-like').click();
  await expect(page.getByTestId('swipe-liked')).toContainText(`Sign up so that ${second} sees your like`);
  await shot('lander-tinderswipe-liked');
  await expectSignup(page, info, page.getByTestId('lander-signup'), true);
});

test('tinderswipe holds its code too: a card swiped before the code runs follows the pointer, and counts once it runs', { tag: '@phone' }, async ({ page }) => {
  // The page's scripts are kept waiting until the card has been let go.
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => { arrive = resolve; });
  const scripts: string[] = [];
  await page.route('**/assets/*.js', async (route) => {
    scripts.push(new URL(route.request().url()).pathname);
    await arrived;
    await route.continue();
  });
  await page.goto('/landers/tinderswipe');
  await expectPhotosLoaded(page, '[data-testid="swipe-card"] img');
  expect(scripts, 'scripts before the first interaction').toEqual([]);
  const cards = page.getByTestId('swipe-card');
  const first = await cards.last().locator('img').getAttribute('alt');
  const box = (await cards.last().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 160, box.y + box.height / 2, { steps: 8 });
  const shift = () => cards.last().evaluate((card) => new DOMMatrix(getComputedStyle(card).transform).m41);
  expect(await shift(), 'the card follows the pointer before any script ran').toBeLessThan(-100);
  await page.mouse.up();
  expect(await shift(), 'and stays where it was let go').toBeLessThan(-100);
  expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull();
  expect(scripts.length, 'the drag started the code').toBeGreaterThan(0);
  arrive();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // Passed (a drag to the left): the next member is on top, and there is no match.
  await expect(cards.last().locator('img')).not.toHaveAttribute('alt', first!);
  await expect(page.getByTestId('swipe-liked')).toHaveCount(0);
  expect(await shift()).toBe(0);
});

test('tinderswipe takes no slug', async ({ page }) => {
  expect((await page.goto('/landers/tinderswipe/women'))?.status()).toBe(404);
});

/**
 * A demo member's id, as a visitor's search shows them. Other browser tests sign up Dutch members
 * without a photo or a story; the demo members of another country have both.
 */
async function aMemberId(page: Page, index = 0): Promise<number> {
  const res = await page.request.get('/api/members.php?gender=female&country=DE', { headers: { 'X-Request-Type': 'client' } });
  return (await res.json()).profiles.filter((p: { main_image: unknown }) => p.main_image)[index].id;
}

test('members/{id}/landing2: a chat waiting for the visitor’s first message; an opener signs up with that member', { tag: '@phone' }, async ({ page, shot }, info) => {
  const id = await aMemberId(page);
  await page.goto(`/members/${id}/landing2/spring?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Say hello to');
  await expect(page.locator('.chat-about blockquote')).not.toBeEmpty();
  await expectPhotosLoaded(page, '.chat-phone img');
  await shot('member-landing2');
  await expectSignup(page, info, page.locator('.chat-opener').first(), true);
  // On a large screen the modal signs up in this member's context.
  if (info.project.name !== 'mobile') await expect(page.getByTestId('signup-modal')).toContainText(/Message|message/);
});

test('members/{id}/landing3: the member in the spotlight; the call to action signs up with them', async ({ page, shot }, info) => {
  const id = await aMemberId(page, 1);
  await page.goto(`/members/${id}/landing3?${TRACKING}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.spot-traits li, .spot-about').first()).toBeVisible();
  await expectPhotosLoaded(page, '.spot-main img');
  await shot('member-landing3');
  await expectSignup(page, info, page.getByTestId('lander-signup'), true);
});

test('member landers answer 404 for unknown members and malformed slugs', async ({ page, shot }) => {
  expect((await page.goto('/members/999999/landing2'))?.status()).toBe(404);
  // The error shows inside the landers' own bar and footer, with the way home.
  await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404');
  await expect(page.locator('.lander-navbar [data-testid=logo]')).toBeVisible();
  await expect(page.locator('footer')).toBeVisible();
  await shot('lander-404');
  expect((await page.goto('/members/abc/landing3'))?.status()).toBe(404);
  const id = await aMemberId(page);
  expect((await page.goto(`/members/${id}/landing3/Not.A.Slug`))?.status()).toBe(404);
  expect((await page.goto('/landers/gallery/Bad_Slug'))?.status()).toBe(404);
  expect((await page.goto('/landers/nosuchlander'))?.status()).toBe(404);
});

test('a site’s short path opens its lander or page with its tracking; real pages win, unknown paths are 404', async ({ page }) => {
  await page.goto('/nearby?sub2=flyer-a');
  await expect(page).toHaveURL(/\/landers\/maplanding\?sub2=flyer-a&network=flyer&sub1=nearby$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Who’s single near you?');
  const tracking = (await page.context().cookies()).find((c) => c.name === 'amora.tracking');
  expect(JSON.parse(Buffer.from(tracking!.value.split('.')[0], 'base64url').toString())).toEqual({ network: 'flyer', sub1: 'nearby', sub2: 'flyer-a' });
  // The lander's sign-up links carry the token's parameters too.
  await expect(page.getByTestId('lander-signup')).toHaveAttribute('href', '/signup?sub2=flyer-a&network=flyer&sub1=nearby');

  await page.goto('/dating-faq');
  await expect(page).toHaveURL(/\/pages\/faq\?network=newsletter&sub1=faq$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  expect((await page.goto('/no-such-token'))?.status()).toBe(404);
  expect((await page.goto('/pricing'))?.status()).toBe(200);
  await expect(page).toHaveURL(/\/pricing$/);
});

test.describe('a visitor from the Netherlands', () => {
  test.use({ extraHTTPHeaders: { 'x-country-code': 'NL' } });

  test('sees the entry warning on a lander first, and Dutch members first', async ({ page, shot }) => {
    await page.goto(`/landers/gallery?${TRACKING}`);
    await expect(page.getByTestId('entry-warning')).toBeVisible();
    await shot('lander-entry-warning-nl');
    await page.getByTestId('entry-warning-accept').click();
    await expect(page.getByTestId('entry-warning')).toBeHidden();
    // A Dutch province, or the country for members (of other tests) who have not given their region.
    await expect(page.locator('.gallery-place').first()).toHaveText(/(Netherlands|Noord-Holland|Zuid-Holland|Utrecht|Noord-Brabant|Gelderland|Groningen|Limburg|Overijssel|Friesland|Drenthe|Flevoland|Zeeland)$/);
  });
});

test('a signed-in member is sent from a lander to the search and from a member lander to the profile', async ({ page }) => {
  const id = await aMemberId(page);
  await page.goto('/login');
  await acceptEntryWarning(page);
  await page.locator('#login-email').fill('demo@example.com');
  await page.locator('#login-password').fill('amora-demo');
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/members$/);
  await page.goto(`/landers/socialnetwork?${TRACKING}`);
  await expect(page).toHaveURL(/\/members$/);
  await page.goto(`/members/${id}/landing3`);
  await expect(page).toHaveURL(new RegExp(`/members/${id}$`));
});

test('a lander loads no script until the visitor interacts; then it runs. A measured visit (?lb) runs at once', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname); });
  await page.goto('/landers/collagelanding');
  // Everything the page asks for at load has come (no request for half a second).
  await page.waitForLoadState('networkidle');
  expect(scripts, 'scripts before the first interaction').toEqual([]);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull();
  await page.mouse.move(300, 300);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  expect(scripts.some((s) => s.includes('entry.client'))).toBe(true);
  // A pointer that moves while the page is still arriving (before its held script is parsed) starts it too.
  await page.addInitScript(() => {
    let fired = false;
    new MutationObserver((_, observer) => {
      if (fired || !document.querySelector('main')) return;
      fired = true;
      observer.disconnect();
      window.dispatchEvent(new Event('mouseover'));
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/landers/gallery');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // The page-bounce beacon must be armed whether or not the visitor does anything.
  await page.goto('/landers/collagelanding?lb=1');
  await expect(page.locator('html')).toHaveAttribute('data-page-bounce', 'armed');
});

test('a held sign-up click leads to the sign-up page when the lander\'s scripts cannot load', async ({ browser }, info) => {
  // A page of its own: the failed script loads are the point here, not errors to report.
  const page = await browser.newPage({ baseURL: info.project.use.baseURL });
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/landers/collagelanding');
  await page.getByTestId('lander-signup').click();
  // At once, not after the 8 seconds a held click waits for scripts that are merely slow.
  await expect(page).toHaveURL(/\/signup$/, { timeout: 4000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.close();
});
