/* Service worker: shows web push notifications and hands clicks to an open page. */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

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
      icon: '/favicon.svg',
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
