import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';

describe('HTTP hardening', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0 });
  });
  afterAll(() => t.close());

  it('sends a page a strict policy with its nonce, and a JSON answer the short policy of data', async () => {
    const page = await t.client().get('/offline');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    // Styles too: no 'unsafe-inline', the same nonce as the scripts (docs/decisions/052), the one the page's element carries.
    const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)![1];
    expect(csp).toMatch(new RegExp(`style-src 'self' 'nonce-${nonce.replace(/[+/]/g, '\\$&')}'(;|$)`));
    expect(page.body).toContain(`<style nonce="${nonce}">`);
    expect(csp).not.toContain("'unsafe-inline'");
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(page.headers.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=(self)');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    // Another page, another nonce.
    expect((await t.client().get('/offline')).headers.get('content-security-policy')).not.toContain(nonce);

    const res = await t.client().get('/api/settings.php');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(res.headers.get('cache-control')).toBe('no-store');
    // An error is JSON too.
    expect((await t.client().get('/api/nothing.php')).headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('refuses cross-site state changes', async () => {
    const client = t.client();
    await client.login();
    const res = await client.post('/api/like.php', { profile_id: 1 }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
    const foreignOrigin = await client.put('/api/user.php', { language: 'de' }, { origin: 'https://evil.example' });
    expect(foreignOrigin.status).toBe(403);
  });

  it('answers bad JSON and unknown endpoints with translated errors', async () => {
    const raw = await t.app.request('http://localhost/api/user.php', { method: 'POST', headers: { host: 'localhost', 'content-type': 'application/json' }, body: '{nope' });
    expect(raw.status).toBe(400);
    expect((await raw.json()).error.code).toBe('invalid_input');
    const form = await t.app.request('http://localhost/api/user.php', { method: 'POST', headers: { host: 'localhost', 'content-type': 'text/plain' }, body: 'a' });
    expect(form.status).toBe(415);
    const missing = await t.client().get('/api/nothing.php');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual({ code: 'not_found', message: 'This page could not be found.' });
  });

  it('serves only well-formed photo names', async () => {
    expect((await t.client().get('/photos/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect((await t.client().get('/photos/missing.webp')).status).toBe(404);
  });
});
