import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MAIL_PART_POLICY } from '../app.ts';
import { photos } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

/**
 * Through the real Node listener, as in production: in-process app.request() uses the platform's
 * Response and never showed the loss.
 */
describe.each(DATABASE_KINDS)('photos and the outbox carry the security headers (%s)', (kind) => {
  let t: TestApp;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 2, outbox: true });
    server = createServer(getRequestListener(t.app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  /** What every answer carries, document or data. */
  const expectCommonHeaders = (res: Response, what: string) => {
    expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(res.headers.get('strict-transport-security'), what).toMatch(/max-age=\d+/);
    expect(res.headers.get('x-request-id'), what).toBeTruthy();
  };
  const expectSecurityHeaders = (res: Response, what: string, policy = /default-src 'self'.*frame-ancestors 'none'/) => {
    expectCommonHeaders(res, what);
    expect(res.headers.get('content-security-policy'), what).toMatch(policy);
    expect(res.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options'), what).toBe('SAMEORIGIN');
    expect(res.headers.get('permissions-policy'), what).toContain('camera=()');
  };
  /** A JSON answer is data: it may load nothing and be framed by nobody (docs/decisions/088). */
  const expectDataHeaders = (res: Response, what: string) => {
    expectCommonHeaders(res, what);
    expect(res.headers.get('content-type'), what).toMatch(/^application\/json/);
    expect(res.headers.get('content-security-policy'), what).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options'), what).toBe('DENY');
    expect(res.headers.get('cross-origin-resource-policy'), what).toBe('same-origin');
  };

  it('a public photo, a private one and a missing one all carry them', async () => {
    const [publicPhoto] = await t.database.db.select().from(photos).where(and(eq(photos.status, 'active'), eq(photos.isPrivate, false))).limit(1);
    const res = await fetch(`${base}/photos/${publicPhoto.filename}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expectSecurityHeaders(res, 'public photo');
    const thumb = await fetch(`${base}/photos/${publicPhoto.thumbFilename}`);
    expectSecurityHeaders(thumb, 'thumbnail');
    const missing = await fetch(`${base}/photos/nothing-here.webp`);
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing, 'missing photo');
  });

  it('the outbox viewer (operator on loopback) and its JSON carry them', async () => {
    const { user } = await signUp(t);
    await t.client({ ip: '203.0.113.9' }).post('/api/password-reset.php', { email: user.email });
    const list = await fetch(`${base}/dev/outbox`);
    expect(list.status).toBe(200);
    expectSecurityHeaders(list, 'outbox');
    const json = await fetch(`${base}/dev/outbox/mails.json`);
    expect(json.status).toBe(200);
    expectDataHeaders(json, 'outbox json');
    const id = ((await json.json()) as { mails: { id: string }[] }).mails[0].id;
    for (const path of [`/dev/outbox/${id}`, `/dev/outbox/${id}/html`]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      // The mail's HTML part has a policy of its own (its inline styles, no script, sandboxed: docs/decisions/052).
      expectSecurityHeaders(res, path, path.endsWith('/html') ? new RegExp(`^${MAIL_PART_POLICY}$`) : undefined);
    }
    // Refused (as through a proxy): still the headers.
    const refused = await fetch(`${base}/dev/outbox/mails.json`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(refused.status).toBe(404);
    expectDataHeaders(refused, 'refused outbox');
  });

  it('API answers, errors included, carry the headers of data', async () => {
    expectDataHeaders(await fetch(`${base}/api/settings.php`), 'api');
    expectDataHeaders(await fetch(`${base}/api/no-such-endpoint.php`), 'api 404');
  });
});
