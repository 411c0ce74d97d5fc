import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('log-out needs a same-site POST, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3 });
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  });

  const signedIn = async () => {
    const { client } = await signUp(t);
    expect((await client.get('/api/user.php')).status).toBe(200);
    return client;
  };

  it('POST /api/logout.php ends the session and clears the cookie', async () => {
    const client = await signedIn();
    const token = client.cookies.get('auth.session');
    const res = await client.post('/api/logout.php', undefined, { 'sec-fetch-site': 'same-origin', origin: 'http://localhost' });
    expect(res.status).toBe(200);
    expect(client.cookies.has('auth.session')).toBe(false);
    expect((await client.get('/api/user.php')).status).toBe(403);
    // The ended session stays ended even with the old cookie.
    expect(await t.services.accounts.sessionUserId(token, t.siteId)).toBeNull();
  });

  it('a cross-site POST is refused and the session stays', async () => {
    const client = await signedIn();
    expect((await client.post('/api/logout.php', undefined, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await client.post('/api/logout.php', undefined, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await client.get('/api/user.php')).status).toBe(200);
  });

  it('a cross-site GET (an image on another site) answers 403 and keeps the session', async () => {
    const client = await signedIn();
    const noClientHeader = { 'x-request-type': '' };
    const attempts: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image', ...noClientHeader },
      // A sibling subdomain may belong to someone else.
      { 'sec-fetch-site': 'same-site', ...noClientHeader },
      // A browser without fetch metadata: the Referer names the other site, or there is none at all.
      { referer: 'https://evil.example/page', ...noClientHeader },
      { origin: 'https://evil.example', ...noClientHeader },
      { origin: 'null', ...noClientHeader },
      noClientHeader,
    ];
    for (const headers of attempts) {
      const res = await client.get('/api/logout.php', headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(client.cookies.has('auth.session')).toBe(true);
      expect((await client.get('/api/user.php')).status).toBe(200);
    }
  });

  it('the GET alias still ends the session when the request comes from this site', async () => {
    const fromHere: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none', 'x-request-type': '' },
      { referer: 'http://localhost/members', 'x-request-type': '' },
      { origin: 'http://localhost', 'x-request-type': '' },
      // The site's own client (a header no other site can send without a preflight).
      {},
    ];
    for (const headers of fromHere) {
      const client = await signedIn();
      const res = await client.get('/api/logout.php', headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect((await client.get('/api/user.php')).status).toBe(403);
    }
  });
});
