/*
 * Service worker: starts the installed app without a connection (the offline page and the hashed
 * assets it has seen), shows web push notifications and hands clicks to an open page.
 */
const SHELL_CACHE = 'amora-shell-v1';
const OFFLINE_URL = '/offline';
const SHELL = [OFFLINE_URL, '/favicon.svg', '/manifest.webmanifest', '/app-icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    // The API and every form or beacon (POST) go straight to the network without waking this worker: nothing
    // of them is kept, and a beacon sent as a page goes could be lost on its way through a fetch handler.
    if (event.addRoutes) {
      await event.addRoutes({ condition: { or: [{ urlPattern: { pathname: '/api/*' } }, { requestMethod: 'post' }] }, source: 'network' });
    }
    const cache = await caches.open(SHELL_CACHE);
    await cache.addAll(SHELL.map((url) => new Request(url, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== SHELL_CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

// A page says its language (app/lib/app-shell.ts): the offline page kept here is fetched again when it speaks another
// one, so an installed app that starts without a connection greets the member in their language, not the one of the
// visit that installed the worker.
self.addEventListener('message', (event) => {
  const { type, lang } = event.data || {};
  if (type !== 'LANGUAGE' || typeof lang !== 'string') return;
  event.waitUntil((async () => {
    const cached = await caches.match(OFFLINE_URL);
    if (cached && cached.headers.get('content-language') === lang) return;
    const response = await fetch(new Request(OFFLINE_URL, { cache: 'reload' })).catch(() => null);
    if (response && response.ok) await (await caches.open(SHELL_CACHE)).put(OFFLINE_URL, response);
  })());
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Pages always come from the network (they are the member's own, and change); offline, the app shell.
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(async () => (await caches.match(OFFLINE_URL)) || Response.error()));
    return;
  }
  // The offline page's icon and the manifest: fresh when online, kept for offline starts.
  if (SHELL.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(async () => (await caches.match(url.pathname)) || Response.error()));
    return;
  }
  // Hashed assets and versioned translation files never change: once fetched they start the app from the cache.
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/i18n/')) {
    event.respondWith((async () => {
      const cache = await caches.open(SHELL_CACHE);
      const cached = await cache.match(request);
      if (cached) return cached;
      const response = await fetch(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    })());
  }
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  const payload = {
    title: data.title || self.location.hostname,
    body: data.body || '',
    checkUrl: data.checkUrl || '/',
    openUrl: data.openUrl || data.checkUrl || '/',
  };
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const client of windows) client.postMessage({ type: 'NEW_PUSH_MESSAGE', data: payload });
    await self.registration.showNotification(payload.title, {
      body: payload.body,
      tag: data.tag,
      icon: '/app-icon-192.png',
      badge: '/app-icon-192.png',
      data: { checkUrl: payload.checkUrl, openUrl: payload.openUrl },
    });
  })());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  const openUrl = new URL(data.openUrl || '/', self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const page = windows.find((c) => new URL(c.url).origin === self.location.origin);
    if (page) {
      // The page knows whether the member is signed in: it navigates in-app or opens openUrl itself.
      await page.focus();
      page.postMessage({ type: 'NEW_PUSH_CLICK', data: { checkUrl: data.checkUrl || '/', openUrl: data.openUrl || '/' } });
      return;
    }
    await self.clients.openWindow(openUrl);
  })());
});
