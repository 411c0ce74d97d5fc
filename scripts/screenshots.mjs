// Screenshots of every member-facing page at 375 and 1280 px, full page, and a side-by-side comparison of two runs
// (issue 29 item 27: before and after a change).
//
//   node scripts/screenshots.mjs <outDir>
//     Starts the production build (run `npm run build` first) on a fresh embedded database with the demo seed, as the
//     browser tests' sites start (scripts/e2e-server.mjs, whose SMTP server receives the mail whose links are
//     followed), creates a member with a photo, credits, likes given and received, a match and conversations through
//     the API, and writes <outDir>/<page>-375.png and <page>-1280.png for each page, and pages.json (page, path).
//   node scripts/screenshots.mjs --compare <beforeDir> <afterDir> <outDir>
//     Writes, per page and width, one PNG with the before on the left and the after on the right, each labelled, and
//     index.md listing them (which changed, which are new or gone).
//
// Not a test: nothing here is asserted, a page that fails to load is reported and the others are still taken.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { tsImport } from 'tsx/esm/api';

const WIDTHS = [
  // Phones get their own layout (tab bar, folded filters, the sign-up page instead of the modal), as in the browser tests.
  { name: '375', viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
  { name: '1280', viewport: { width: 1280, height: 800 } },
];

// ---------------------------------------------------------------------------------------------------------------
// Capture

async function capture(outDir) {
  if (!existsSync('build/server/main.js')) {
    console.error('No build: run `npm run build` first (the screenshots are of the production build).');
    process.exit(1);
  }
  mkdirSync(outDir, { recursive: true });
  const { chromium, request: playwrightRequest } = await import('@playwright/test');
  const { DISMISS_COOKIE, DISMISS_KEYS } = await tsImport('../common/constants.ts', import.meta.url);
  ({ HELD_SCRIPT_TYPE } = await tsImport('../app/lib/hydrate-on-interaction.ts', import.meta.url));
  // The browser and its flags as the browser tests start it.
  const { default: config } = await tsImport('../playwright.config.ts', import.meta.url);

  const port = await freePortPair();
  const baseURL = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-screens-'));
  const server = spawn(process.execPath, ['scripts/e2e-server.mjs'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(port), E2E_DATA_DIR: dataDir, E2E_KEEP_DATA: '0', E2E_DATABASE_URL: '' },
  });
  let browser;
  const failures = [];
  try {
    console.log(`Starting the built site on ${baseURL} (embedded database in ${dataDir}, demo seed)…`);
    await serverReady(baseURL, server);
    browser = await chromium.launch(config.use.launchOptions);
    const mails = mailbox(port + 1, playwrightRequest);

    const cast = await createCast({ mails, newApi: (ip) => apiContext(playwrightRequest, baseURL, ip) });
    // Links that come by mail, and a notice's follow-up page, before any page is taken.
    const links = await mailedLinks({ browser, baseURL, cast, mails, dismiss: { DISMISS_COOKIE, DISMISS_KEYS } });
    const pages = pageList(cast, links);
    writeFileSync(join(outDir, 'pages.json'), `${JSON.stringify(pages.map(({ name, path, as }) => ({ name, path, as })), null, 2)}\n`);

    // Page by page, both widths one after the other: a page that changes what the next ones show (a conversation
    // opened is read) does so for both widths alike.
    const dismiss = { DISMISS_COOKIE, DISMISS_KEYS };
    const storageState = await cast.kim.api.storageState();
    const contexts = new Map();
    for (const width of WIDTHS) {
      contexts.set(width, {
        visitor: await newContext(browser, baseURL, width, dismiss, { dismissWarning: true }),
        // A first visit: the adults-only warning shows.
        newcomer: await newContext(browser, baseURL, width, dismiss, { dismissWarning: false }),
        member: await newContext(browser, baseURL, width, dismiss, { dismissWarning: true, storageState }),
      });
    }
    for (const entry of pages) {
      for (const width of WIDTHS) {
        const file = join(outDir, `${entry.name}-${width.name}.png`);
        try {
          await shoot(contexts.get(width)[entry.as], entry, file);
          console.log(`  ${basename(file)}  ${entry.path}`);
        } catch (error) {
          failures.push(`${basename(file)} (${entry.path}): ${error.message.split('\n')[0]}`);
          console.error(`  ${basename(file)} FAILED: ${error.message.split('\n')[0]}`);
        }
      }
    }
    for (const byKind of contexts.values()) for (const context of Object.values(byKind)) await context.close();
    // The sign-up steps, one new visitor per width, once every other page is taken (the new members they make would
    // be in the search and the swipe deck of the pages taken after them).
    for (const width of WIDTHS) {
      try {
        await signupSteps(browser, baseURL, width, dismiss, outDir);
      } catch (error) {
        failures.push(`sign-up steps at ${width.name} px: ${error.message.split('\n')[0]}`);
        console.error(`  sign-up steps at ${width.name} px FAILED: ${error.message.split('\n')[0]}`);
      }
    }
    for (const member of Object.values(cast.members)) await member.api.dispose();
  } finally {
    await browser?.close();
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\nScreenshots in ${outDir}.`);
  if (failures.length) {
    console.error(`${failures.length} not taken:\n${failures.map((f) => `  ${f}`).join('\n')}`);
    process.exitCode = 1;
  }
}

/** Every member-facing page of app/routes.ts (not the console), with the context that sees it. */
function pageList(cast, links) {
  const { d1, d3, sam, robin } = cast.ids;
  const visitor = (name, path) => ({ name, path, as: 'visitor' });
  const member = (name, path) => ({ name, path, as: 'member' });
  return [
    // Visitors: the home page, the logged-out search and profile, sign-up and log-in, prices.
    { name: 'entry-warning', path: '/', as: 'newcomer' },
    visitor('home-visitor', '/'),
    visitor('members-visitor', '/members'),
    visitor('member-profile-visitor', `/members/${d1}`),
    visitor('login', '/login'),
    visitor('signup-matches', '/signup-matches'),
    visitor('members-id-signup', `/members/${d1}/signup`),
    visitor('pricing-visitor', '/pricing'),
    visitor('reset-password', '/reset-password'),
    visitor('reset-password-do', links.passwordReset),
    visitor('activate-done', '/activate/done'),
    visitor('activate-error', '/activate/error'),
    visitor('mail-change-do-invalid', '/mail-change/do?token=invalid'),
    visitor('account-deleted', '/account-deleted'),
    visitor('complaints', `/complaints?kind=profile&id=${d1}`),
    visitor('complaints-reference', links.complaint),
    // The static pages.
    ...['terms', 'privacy', 'cookies', 'ban', 'return-policy', 'faq', 'service'].map((page) => visitor(`pages-${page}`, `/pages/${page}`)),
    // The landers and a member's landing pages.
    visitor('landers-alonetonight', '/landers/alonetonight'),
    visitor('landers-collagelanding', '/landers/collagelanding'),
    visitor('landers-gallery', '/landers/gallery/women-nl'),
    visitor('landers-iconslanding', '/landers/iconslanding'),
    visitor('landers-maplanding', '/landers/maplanding/nl'),
    visitor('landers-socialnetwork', '/landers/socialnetwork'),
    visitor('landers-tinderswipe', '/landers/tinderswipe'),
    visitor('landers-transitionsvideolanding', '/landers/transitionsvideolanding'),
    visitor('landers-video', '/landers/video/women-nl'),
    visitor('members-id-landing', `/members/${d1}/landing`),
    visitor('members-id-landing2', `/members/${d1}/landing2`),
    visitor('members-id-landing3', `/members/${d1}/landing3`),
    visitor('not-found-visitor', '/no/such/page'),
    // The signed-in member.
    member('home-member', '/'),
    member('members', '/members'),
    member('member-profile', `/members/${d1}`),
    member('member-profile-match', `/members/${sam}`),
    member('likes', '/likes'),
    member('likes-given', '/likes/given'),
    member('likes-matches', '/likes/matches'),
    member('likes-overlay', `/likes/m/${robin}`),
    member('chats', '/chats'),
    member('chat-conversation', `/chats/${cast.conversation}`),
    member('members-id-chat', `/members/${d3}/chat`),
    member('swipe-game', '/swipe-game'),
    member('match-finder', '/match-finder'),
    member('profile', '/profile'),
    member('notifications', '/notifications'),
    member('credits', '/credits'),
    member('credits-order', `/credits/${cast.order.id}/ideal`),
    member('credits-repeat-order', '/credits/repeat-order'),
    member('directdebit', '/directdebit'),
    member('test-checkout', `/test-checkout/${cast.openOrder.payment_id}`),
    member('transactions', '/transactions'),
    member('transaction', `/transactions/${cast.order.id}`),
    member('premium', '/premium'),
    member('pricing', '/pricing'),
    member('report', `/report?profile=${d3}`),
    member('reports', '/reports'),
    member('lang-config', '/lang-config'),
    member('delete-account', '/delete-account'),
    member('not-found', '/no/such/page'),
    // Pages not taken: /{token} (a short path answers a redirect to its lander, taken above), /statements/{id} (a
    // moderator's decision, made in the console), /entry-warning (the warning's form posts there; a GET is sent to /,
    // whose warning is taken above), /complete-signup (taken with the sign-up steps).
  ];
}

async function newContext(browser, baseURL, width, { DISMISS_COOKIE, DISMISS_KEYS }, { dismissWarning, storageState }) {
  const context = await browser.newContext({
    baseURL, viewport: width.viewport, isMobile: width.isMobile ?? false, hasTouch: width.hasTouch ?? false, deviceScaleFactor: 1,
    storageState, locale: 'en-GB', timezoneId: 'Europe/Amsterdam', extraHTTPHeaders: { 'x-forwarded-for': randomIp() },
  });
  // The time-bonus modal opens 40 s into the members area: a screenshot taken then would show it over the page.
  await context.addInitScript((key) => localStorage.setItem(key, String(Math.floor(Date.now() / 1000))), DISMISS_KEYS.timeBonusModal);
  if (dismissWarning) {
    // A returning visitor: the adults-only warning was accepted before (the cookie the server reads, and localStorage).
    await context.addCookies([{ name: DISMISS_COOKIE, value: DISMISS_KEYS.entryWarning, url: baseURL }]);
    await context.addInitScript((key) => localStorage.setItem(key, String(Math.floor(Date.now() / 1000))), DISMISS_KEYS.entryWarning);
  }
  return context;
}

async function shoot(context, entry, file) {
  const page = await context.newPage();
  try {
    const response = await page.goto(entry.path, { waitUntil: 'load' });
    if (!response) throw new Error('no answer');
    await settled(page);
    await barsAtPageBottom(page);
    await page.screenshot({ path: file, fullPage: true });
  } finally {
    await page.close();
  }
}

/**
 * A bar fixed to the bottom of the screen (the phones' tab bar) would be drawn where the first screen ends, over the
 * middle of a full-page screenshot: it is moved to the bottom of the page, into the room the page keeps for it there.
 * Only for the screenshot (the page is closed after it); a page no taller than the screen keeps it where it is.
 */
async function barsAtPageBottom(page) {
  await page.evaluate(() => {
    const pageHeight = document.documentElement.scrollHeight;
    if (pageHeight <= window.innerHeight + 1) return;
    for (const el of document.querySelectorAll('body *')) {
      if (getComputedStyle(el).position !== 'fixed') continue;
      const box = el.getBoundingClientRect();
      if (box.height === 0 || box.top < window.innerHeight / 2 || box.bottom < window.innerHeight - 1) continue;
      const wanted = pageHeight - box.height;
      el.style.setProperty('position', 'absolute', 'important');
      el.style.setProperty('bottom', 'auto', 'important');
      el.style.setProperty('top', `${wanted}px`, 'important');
      // Its containing block may start lower than the page: corrected by what it is off.
      const off = wanted - (el.getBoundingClientRect().top + window.scrollY);
      if (Math.abs(off) > 0.5) el.style.setProperty('top', `${wanted + off}px`, 'important');
    }
  });
}

/**
 * Waits until the page is what a person sees once it is done: its code runs (landing pages hold theirs until an
 * interaction, which is given), data answered, every image loaded (lazy ones too: the screenshot is of the whole
 * page), no skeleton or spinner left, and animations that end have ended.
 */
let HELD_SCRIPT_TYPE = '';

async function settled(page) {
  await page.waitForFunction(() => document.readyState === 'complete');
  const runs = await page.evaluate((held) => {
    if (document.querySelector(`script[type="${held}"]`)) window.dispatchEvent(new Event('pointerdown'));
    return Boolean(document.querySelector(`script[type=module], script[type="${held}"], script[data-start="first-paint"]`));
  }, HELD_SCRIPT_TYPE);
  if (runs) await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', null, { timeout: 20_000 }).catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await page.evaluate(() => {
    for (const img of document.images) if (img.loading === 'lazy') img.loading = 'eager';
  });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 20_000 }).catch(() => undefined);
  await page.waitForFunction(() => ![...document.querySelectorAll('.skeleton, .spinner-border, .spinner-grow, [data-testid="search-loading"], [data-testid="skeleton-card"]')]
    .some((el) => el.getClientRects().length > 0), null, { timeout: 20_000 }).catch(() => console.warn(`    still loading after 20 s: ${page.url()}`));
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), null, { timeout: 10_000 })
    .catch(() => undefined);
}

/** The sign-up page's steps, as a new visitor fills them in: account, photo, looking for, location, about, push, done. */
async function signupSteps(browser, baseURL, width, dismiss, outDir) {
  const context = await newContext(browser, baseURL, width, dismiss, { dismissWarning: true });
  const page = await context.newPage();
  const step = async (name) => {
    await settled(page);
    await barsAtPageBottom(page);
    const file = join(outDir, `signup-${name}-${width.name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`  ${basename(file)}`);
  };
  const flowAt = (name) => page.waitForFunction((s) => document.querySelector('[data-testid="signup-flow"]')?.getAttribute('data-step') === s, name, { timeout: 20_000 });
  try {
    await page.goto('/signup');
    await step('0-account');
    await page.locator('#signup-email').fill(`steps.${width.name}.${Date.now()}@example.org`);
    await page.locator('#signup-name').fill('Alex');
    await page.locator('#signup-password').fill('step-by-step-password');
    await page.locator('#signup-dob').fill('1988-07-14');
    await page.locator('#signup-gender').selectOption('male');
    await page.locator('#signup-country').selectOption('NL');
    await page.getByTestId('signup-submit').click();
    await flowAt('photo');
    await step('1-photo');
    await page.locator('#signup-photo').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await portrait('#3a7ca5', '#f4d35e') });
    await page.getByTestId('signup-photo-upload').click();
    await page.getByTestId('photo-order-item').first().waitFor();
    await step('1-photo-uploaded');
    await page.getByTestId('signup-photo-next').click();
    await flowAt('looking');
    await page.getByLabel('Women', { exact: true }).check();
    await step('2-looking');
    await page.getByTestId('signup-next').click();
    await flowAt('location');
    await step('3-location');
    await page.getByTestId('signup-next').click();
    await flowAt('about');
    await page.locator('#signup-about').fill('I like long walks along the canals.');
    await step('4-about');
    await page.getByTestId('signup-next').click();
    await flowAt('push');
    await step('5-push');
    await page.getByTestId('signup-skip').click();
    await flowAt('complete');
    await step('6-complete');
    // A member who left the steps comes back to finish them here.
    await page.goto('/complete-signup');
    await step('7-complete-signup-page');
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The members on the pages

/**
 * Kim, the member whose pages are taken (a photo, an about text, credits, a like given to a demo member and a
 * conversation with them, a report), Sam (Kim's match, with a conversation both ways) and Robin (who likes Kim).
 */
async function createCast({ mails, newApi }) {
  const members = {};
  const signUp = async (key, name, gender, dateOfBirth, colours) => {
    const api = await newApi(randomIp());
    const email = `${key}.${Date.now()}@example.org`;
    const res = await api.post('/api/signup.php', { data: { email, name, password: 'screenshots password', date_of_birth: dateOfBirth, gender, country: 'NL' } });
    await expectStatus(res, 201, `sign-up of ${name}`);
    const { user } = await res.json();
    // Only confirmed members receive messages.
    const activation = await mails.link(email, 'activation', '/api/activate.php');
    await api.get(activation);
    const photo = await api.post('/api/photos.php', { multipart: { photo: { name: `${key}.jpg`, mimeType: 'image/jpeg', buffer: await portrait(...colours) } } });
    await expectStatus(photo, 201, `photo of ${name}`);
    members[key] = { id: user.id, email, api };
    return members[key];
  };
  const kim = await signUp('kim', 'Kim', 'female', '1990-03-03', ['#b5446e', '#f6c28b']);
  const sam = await signUp('sam', 'Sam', 'male', '1987-06-12', ['#2f6690', '#d9dcd6']);
  const robin = await signUp('robin', 'Robin', 'male', '1992-11-23', ['#3a5a40', '#dad7cd']);
  await expectStatus(await kim.api.put('/api/signup-profile.php', { data: { about: 'Coffee, cycling along the canals and the odd museum on a rainy Sunday.' } }), 200, 'Kim\'s about text');

  const order = await buy(kim.api, 'kim-1', true);
  await buy(sam.api, 'sam-1', true);
  // An order left at the checkout: the test provider's hosted checkout page.
  const openOrder = await buy(kim.api, 'kim-2', false);

  const { profiles } = await (await kim.api.get('/api/members.php')).json();
  const demo = profiles.filter((p) => p.main_image && ![kim.id, sam.id, robin.id].includes(p.id)).map((p) => p.id);
  if (demo.length < 3) throw new Error(`the search found ${demo.length} demo members with a photo`);
  const [d1, d2, d3] = demo;

  const like = async (from, id) => expectStatus(await from.api.post('/api/like.php', { data: { profile_id: id } }), 200, `like of ${id}`);
  await like(sam, kim.id);
  await like(kim, sam.id);
  await like(robin, kim.id);
  await like(kim, d1);
  const send = async (from, to, text) => expectStatus(
    await from.api.post('/api/messages.php', { data: { profile_id: to, text }, headers: { 'idempotency-key': `screens-${from.id}-${to}-${text.length}-${Date.now()}` } }),
    201, `message to ${to}`,
  );
  await send(kim, d1, 'Hi! Your photo by the sea looks lovely. Where was it taken?');
  await send(sam, kim.id, 'Hi Kim, we matched! How is your week going?');
  await send(kim, sam.id, 'Hi Sam! Busy but good. Cycling to the coast on Saturday if the weather holds.');
  await send(sam, kim.id, 'That sounds great. Which route do you take?');
  const { chats } = await (await kim.api.get('/api/chats.php')).json();
  const conversation = chats.find((c) => c.profile.id === sam.id)?.conversation.id;
  if (!conversation) throw new Error('no conversation with Sam');
  await expectStatus(await kim.api.post('/api/report.php', { data: { profile_id: d2, kind: 'profile', reason: 'spam', text: 'Sends the same link to everyone.' } }), 201, 'a report');
  return { members, kim, ids: { d1, d2, d3, sam: sam.id, robin: robin.id }, order, openOrder, conversation };
}

/** Places an order of the first bundle at the test provider; pays it when `pay`. */
async function buy(api, key, pay) {
  const { packages } = await (await api.get('/api/packages.php')).json();
  const placed = await api.post('/api/order.php', {
    data: { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, headers: { 'idempotency-key': `screens-${key}-${Date.now()}` },
  });
  await expectStatus(placed, 201, 'an order');
  const { order } = await placed.json();
  if (pay) await expectStatus(await api.post('/api/test-checkout.php', { data: { id: order.payment_id, outcome: 'paid' } }), 200, 'a payment');
  return order;
}

/** The links that come by mail: a password reset (Kim's) and the follow-up page of a visitor's notice. */
async function mailedLinks({ browser, baseURL, cast, mails, dismiss }) {
  await expectStatus(await cast.kim.api.post('/api/password-reset.php', { data: { email: cast.kim.email } }), 200, 'a password reset');
  const passwordReset = await mails.link(cast.kim.email, 'password_reset', '/reset-password/do');

  const context = await newContext(browser, baseURL, WIDTHS[1], dismiss, { dismissWarning: true });
  const page = await context.newPage();
  const email = `notice.${Date.now()}@example.org`;
  try {
    await page.goto(`/complaints?kind=profile&id=${cast.ids.d2}`);
    await settled(page);
    await page.getByTestId('notice-reason').selectOption('harassment');
    await page.getByTestId('notice-explanation').fill('This profile sends threatening messages to other members.');
    await page.getByTestId('notice-name').fill('Vera Visitor');
    await page.getByTestId('notice-email').fill(email);
    await page.getByTestId('notice-bona-fide').check();
    await page.getByTestId('notice-submit').click();
    await page.getByTestId('notice-sent').waitFor();
  } finally {
    await context.close();
  }
  const complaint = await mails.link(email, 'notice_received', '/complaints/');
  return { passwordReset, complaint };
}

/** The mail the site sent, as the SMTP server of scripts/e2e-server.mjs received it (its mailbox on port + 1). */
function mailbox(port, playwrightRequest) {
  return {
    async link(to, kind, part) {
      const api = await playwrightRequest.newContext();
      try {
        for (let i = 0; i < 100; i++) {
          const { mails } = await (await api.get(`http://127.0.0.1:${port}/mails.json?to=${encodeURIComponent(to)}`)).json();
          const mail = mails.find((m) => m.kind === kind);
          const url = mail?.text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(part));
          if (url) {
            const u = new URL(url);
            return u.pathname + u.search;
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      } finally {
        await api.dispose();
      }
      throw new Error(`no ${kind} mail to ${to} with a ${part} link`);
    },
  };
}

function apiContext(playwrightRequest, baseURL, ip) {
  // Each member is their own client address (the site trusts X-Forwarded-For, as in the browser tests): the
  // per-address sign-up limit sees separate people.
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': ip, 'x-request-type': 'client' } });
}

async function expectStatus(res, expected, what) {
  if (res.status() !== expected) throw new Error(`${what}: ${res.status()} ${(await res.text()).slice(0, 300)}`);
  return res;
}

/** A portrait-shaped photo: a figure on a two-colour background, as a JPEG (the uploads' usual kind). */
function portrait(background, figure) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800" viewBox="0 0 600 800">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${background}"/><stop offset="1" stop-color="${figure}" stop-opacity="0.6"/></linearGradient></defs>
    <rect width="600" height="800" fill="url(#g)"/>
    <circle cx="300" cy="300" r="120" fill="${figure}"/>
    <ellipse cx="300" cy="720" rx="230" ry="260" fill="${figure}"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

// ---------------------------------------------------------------------------------------------------------------
// The server

/** A port with its neighbour free too (scripts/e2e-server.mjs puts its mailbox on port + 1). */
async function freePortPair() {
  for (let i = 0; i < 20; i++) {
    const port = await listenOn(0);
    if (await listenOn(port + 1).then(() => true, () => false)) return port;
  }
  throw new Error('no two free ports side by side');
}

function listenOn(port) {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => {
      const { port: taken } = s.address();
      s.close(() => resolve(taken));
    });
  });
}

async function serverReady(baseURL, child) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseURL}/api/settings.php`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the site did not start within 180 s');
}

function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Compare

const GAP = 16;
const LABEL = 40;

async function compare(beforeDir, afterDir, outDir) {
  mkdirSync(outDir, { recursive: true });
  const pngs = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => /-\d+\.png$/.test(f)) : []);
  const before = new Set(pngs(beforeDir));
  const after = new Set(pngs(afterDir));
  // In the order the pages were taken (pages.json), the sign-up steps and anything else after them.
  const order = [afterDir, beforeDir].map((dir) => join(dir, 'pages.json')).filter(existsSync).flatMap((f) => JSON.parse(readFileSync(f, 'utf8')).map((p) => p.name));
  const rank = (file) => {
    const name = file.replace(/-\d+\.png$/, '');
    const i = order.indexOf(name);
    return i === -1 ? order.length : i;
  };
  const widthOf = (file) => Number(/-(\d+)\.png$/.exec(file)[1]);
  const files = [...new Set([...before, ...after])].sort((a, b) => rank(a) - rank(b) || a.replace(/-\d+\.png$/, '').localeCompare(b.replace(/-\d+\.png$/, '')) || widthOf(a) - widthOf(b));
  const rows = [];
  for (const file of files) {
    const b = before.has(file) ? join(beforeDir, file) : null;
    const a = after.has(file) ? join(afterDir, file) : null;
    const state = !b ? 'new' : !a ? 'gone' : (await samePixels(b, a)) ? 'unchanged' : 'changed';
    await sideBySide(b, a, file, join(outDir, file));
    rows.push({ file, state });
    console.log(`  ${file}  ${state}`);
  }
  const count = (state) => rows.filter((r) => r.state === state).length;
  const index = [
    '# Screenshots: before and after',
    '',
    `Before: \`${beforeDir}\`; after: \`${afterDir}\`. Each image shows the page before on the left and after on the right, full page.`,
    '',
    `${rows.length} screenshots: ${count('changed')} changed, ${count('unchanged')} unchanged, ${count('new')} new, ${count('gone')} gone.`,
    '',
    '| page | width | | |',
    '|---|---|---|---|',
    ...rows.map(({ file, state }) => `| ${file.replace(/-\d+\.png$/, '')} | ${widthOf(file)} px | ${state} | [${file}](${file}) |`),
    '',
    ...rows.filter((r) => r.state !== 'unchanged').flatMap(({ file, state }) => [`## ${file.replace(/\.png$/, '')} (${state})`, '', `![${file}](${file})`, '']),
  ].join('\n');
  writeFileSync(join(outDir, 'index.md'), index);
  console.log(`\n${rows.length} comparisons and index.md in ${outDir}.`);
}

async function samePixels(a, b) {
  const [x, y] = await Promise.all([a, b].map((f) => sharp(f).ensureAlpha().raw().toBuffer({ resolveWithObject: true })));
  return x.info.width === y.info.width && x.info.height === y.info.height && x.data.equals(y.data);
}

const escapeXml = (s) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);

/** One PNG: the label row, then before (left) and after (right) side by side; a missing side is named. */
async function sideBySide(beforeFile, afterFile, name, out) {
  const meta = async (f) => (f ? sharp(f).metadata() : null);
  const [mb, ma] = await Promise.all([meta(beforeFile), meta(afterFile)]);
  const width = Number(/-(\d+)\.png$/.exec(name)[1]);
  const colW = Math.max(mb?.width ?? width, ma?.width ?? width);
  const height = LABEL + Math.max(mb?.height ?? 200, ma?.height ?? 200) + GAP;
  const total = colW * 2 + GAP * 3;
  const label = (text, x) => `<text x="${x}" y="27" font-family="DejaVu Sans, sans-serif" font-size="18" fill="#222">${escapeXml(text)}</text>`;
  const missing = (x, f) => (f ? '' : `<text x="${x}" y="${LABEL + 40}" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#a00">(no screenshot)</text>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="${LABEL}">
    ${label(`before · ${name}`, GAP)}${label(`after · ${name}`, GAP * 2 + colW)}</svg>`;
  const notes = `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="${LABEL + 60}">${missing(GAP, beforeFile)}${missing(GAP * 2 + colW, afterFile)}</svg>`;
  const layers = [{ input: Buffer.from(svg), top: 0, left: 0 }, { input: Buffer.from(notes), top: 0, left: 0 }];
  if (beforeFile) layers.push({ input: beforeFile, top: LABEL, left: GAP });
  if (afterFile) layers.push({ input: afterFile, top: LABEL, left: GAP * 2 + colW });
  await sharp({ create: { width: total, height, channels: 3, background: '#e9ecef' }, limitInputPixels: false })
    .composite(layers).png({ compressionLevel: 9 }).toFile(out);
}

// ---------------------------------------------------------------------------------------------------------------

// Folders are read and written where they were named; the build and the scripts it starts are found from the project's root.
const args = process.argv.slice(2).map((arg) => (arg.startsWith('-') ? arg : resolve(arg)));
process.chdir(fileURLToPath(new URL('..', import.meta.url)));
if (args[0] === '--compare' && args.length === 4) await compare(args[1], args[2], args[3]);
else if (args.length === 1 && !args[0].startsWith('-')) await capture(args[0]);
else {
  console.error('usage: node scripts/screenshots.mjs <outDir>\n       node scripts/screenshots.mjs --compare <beforeDir> <afterDir> <outDir>');
  process.exit(2);
}
