/**
 * Pages that run their code only once the visitor interacts (docs/decisions/043). A landing page is complete as
 * the server renders it: photos, text, and calls to action that are plain links. On such a page the server holds
 * the page's scripts back (no module preloads, React Router's start-up script with an inert type) and adds
 * `hydrateOnInteraction`, a few hundred bytes inline: the first pointer, touch, key or focus starts the page's
 * code, and a click that needs it (a sign-up link that opens the modal on larger screens, a button) waits for
 * it and happens again once the page runs. Links elsewhere are followed by the browser at once.
 */

/** A route's handle may say when its page runs; the deepest route that says so decides. */
export interface HydrationHandle {
  hydrate?: 'on-interaction' | 'at-load';
}

/** The type the held start-up script carries instead of `module`, so the browser leaves it alone. */
export const HELD_SCRIPT_TYPE = 'text/x-held-module';

/** Smartphones (a narrow screen or a phone's user agent) follow sign-up links to the page; larger screens get the modal. */
export const SMARTPHONE_MEDIA = '(max-width: 767.98px)';
export const SMARTPHONE_AGENT = /Android.+Mobile|iPhone|iPod|Windows Phone|Mobi/i;
/** Paths of sign-up: /signup, /signup-matches and /members/{id}/signup (the member's id captured). */
export const SIGNUP_PATH = /^\/(?:signup|signup-matches|members\/(\d+)\/signup)$/;

/** The decision for one response: the deepest route's wish, for a visitor, unless the page must run at once. */
export function holdsScripts(handles: unknown[], opts: { signedIn: boolean; runsAtLoad: boolean }): boolean {
  let mode: HydrationHandle['hydrate'];
  for (const handle of handles) mode = (handle as HydrationHandle | undefined)?.hydrate ?? mode;
  return mode === 'on-interaction' && !opts.signedIn && !opts.runsAtLoad;
}

/** The attribute a held module preload carries instead of its `rel` (it fetches nothing until the page starts). */
export const HELD_PRELOAD_ATTRIBUTE = 'data-held-preload';

/**
 * Runs inline in the page (serialized with `toString`, so it uses nothing from outside but its arguments).
 * Starts the held script on the first sign of a visitor, or with `atFirstPaint` once the page has been painted
 * (every page that runs at load: docs/decisions/045); holds a click that needs the page's code until
 * `<html data-hydrated>` says the page runs, then clicks again. Should the code not arrive within 8 seconds,
 * a held link is followed.
 */
export function hydrateOnInteraction(heldType: string, smartphoneMedia: string, smartphoneAgent: RegExp, signupPath: RegExp, heldPreload: string, atFirstPaint: boolean) {
  const root = document.documentElement;
  const triggers = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'mouseover', 'wheel'];
  let started = false;
  let held: HTMLElement | null = null;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  // The rule that moves a card swiped before the page runs (below), with this script's nonce: the
  // Content-Security-Policy allows a style element with it only (docs/decisions/052).
  const follow = document.createElement('style');
  follow.nonce = document.currentScript?.nonce ?? '';
  const letGo = () => follow.remove();
  const followHeldLink = () => {
    letGo();
    if (held instanceof HTMLAnchorElement) location.assign(held.href);
  };
  const start = () => {
    if (started) return;
    // A pointer resting over a page that is still arriving moves over its first content before the held
    // script (at the end of the body) is there: start once the document is complete.
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', start, { once: true });
      return;
    }
    started = true;
    for (const type of triggers) removeEventListener(type, start, true);
    const script = document.querySelector<HTMLScriptElement>(`script[type="${heldType}"]`);
    if (!script) return;
    // The page's chunks and its translation table, all fetched at once now rather than one import after another.
    for (const link of document.querySelectorAll<HTMLLinkElement>(`link[${heldPreload}]`)) {
      link.removeAttribute(heldPreload);
      link.rel = 'modulepreload';
    }
    const table = document.querySelector<HTMLLinkElement>('link[data-translations][media="not all"]');
    if (table) table.media = 'all';
    const run = document.createElement('script');
    run.type = 'module';
    run.nonce = script.nonce;
    run.textContent = script.textContent;
    // The scripts did not load (a release replaced them since the page came): a held link is followed now.
    run.addEventListener('error', followHeldLink);
    document.body.append(run);
  };
  /** Holds a click on `target` until the page runs (a link is followed after 8 s without it). */
  const hold = (target: HTMLElement) => {
    held = target;
    start();
    clearTimeout(fallback);
    fallback = setTimeout(() => { if (!root.dataset.hydrated) followHeldLink(); }, 8000);
  };
  for (const type of triggers) addEventListener(type, start, { capture: true, passive: true });
  // A card swiped before the page runs (one whose data-held-swipe names a distance in px) follows the pointer through a style
  // rule of its own (the card's attributes stay as the server wrote them, for the page to take over); a swipe past
  // that distance is a click on the button of its side ([data-swipe="1"] right, [data-swipe="-1"] left), held
  // until the page runs.
  let swipe: { card: HTMLElement; x: number; dx: number; pointer: number } | null = null;
  addEventListener('pointerdown', (event) => {
    const card = (event.target as Element | null)?.closest?.<HTMLElement>('[data-held-swipe]');
    if (root.dataset.hydrated || !card || !event.isPrimary) return;
    swipe = { card, x: event.clientX, dx: 0, pointer: event.pointerId };
    document.head.append(follow);
  }, true);
  addEventListener('pointermove', (event) => {
    if (!swipe || event.pointerId !== swipe.pointer) return;
    swipe.dx = event.clientX - swipe.x;
    follow.textContent = `[data-held-swipe]{transform:translateX(${swipe.dx}px) rotate(${swipe.dx / 18}deg)!important;transition:none!important}`;
  }, true);
  const release = (event: PointerEvent) => {
    if (!swipe || event.pointerId !== swipe.pointer) return;
    const { card, dx } = swipe;
    swipe = null;
    const button = event.type === 'pointerup' && Math.abs(dx) >= Number(card.dataset.heldSwipe)
      ? document.querySelector<HTMLElement>(`[data-swipe="${dx > 0 ? 1 : -1}"]`) : null;
    if (!button || root.dataset.hydrated) {
      letGo();
      button?.click();
      return;
    }
    // The card stays where it was let go until the page runs and sends it off.
    hold(button);
  };
  addEventListener('pointerup', release, true);
  addEventListener('pointercancel', release, true);
  addEventListener('click', (event) => {
    if (root.dataset.hydrated || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const target = (event.target as Element | null)?.closest?.<HTMLElement>('a[href], button');
    if (!target) return;
    if (target instanceof HTMLAnchorElement) {
      const smartphone = matchMedia(smartphoneMedia).matches || smartphoneAgent.test(navigator.userAgent);
      if (smartphone || target.target === '_blank' || target.origin !== location.origin || !signupPath.test(target.pathname)) return;
    } else if ((target as HTMLButtonElement).type === 'submit') {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    hold(target);
  }, true);
  // A page that runs at load starts once its first screen has been shown (the browser's first contentful paint)
  // with its main photos (the images it fetches with high priority), 3 s at most: that screen does not wait for
  // the scripts, nor share the connections with them. A hidden page paints nothing and starts at once.
  const painted = () => {
    const frames = (done: () => void) => requestAnimationFrame(() => requestAnimationFrame(() => done()));
    const shown = new Promise((done) => {
      if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) return frames(() => done(null));
      new PerformanceObserver((list, observer) => {
        if (!list.getEntriesByName('first-contentful-paint').length) return;
        observer.disconnect();
        done(null);
      }).observe({ type: 'paint', buffered: true });
    });
    const photos = [...document.querySelectorAll<HTMLImageElement>('img[fetchpriority="high"]')].filter((img) => !img.complete);
    const loaded = photos.map((img) => new Promise((done) => {
      img.addEventListener('load', done, { once: true });
      img.addEventListener('error', done, { once: true });
    }).then(() => new Promise((done) => frames(() => done(null)))));
    void Promise.race([Promise.all([shown, ...loaded]), new Promise((done) => setTimeout(done, 3000))]).then(() => setTimeout(start));
  };
  if (atFirstPaint) {
    if (document.hidden) start();
    else if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', painted, { once: true });
    else painted();
  }
  new MutationObserver((_, observer) => {
    if (!root.dataset.hydrated) return;
    observer.disconnect();
    clearTimeout(fallback);
    const again = held;
    held = null;
    // A swipe still under way goes on moving the card until it is let go.
    if (!swipe) letGo();
    if (again?.isConnected) again.click();
  }).observe(root, { attributes: true, attributeFilter: ['data-hydrated'] });
}
