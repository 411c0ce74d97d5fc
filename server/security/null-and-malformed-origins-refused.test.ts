import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { likes } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('Origin null, malformed origins and look-alike JSON types are refused (%s)', (kind) => {
  let t: TestApp;
  let member: TestClient;
  let otherId: number;
  const likeCount = async () => (await t.database.db.select({ n: count() }).from(likes))[0].n;

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    member = (await signUp(t)).client;
    otherId = (await signUp(t)).user.id;
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  });

  it('refuses a state change with Origin: null, also when fetch metadata says same-site', async () => {
    const before = await likeCount();
    for (const site of [undefined, 'same-site', 'same-origin']) {
      const res = await member.post('/api/like.php', { profile_id: otherId }, { origin: 'null', ...(site ? { 'sec-fetch-site': site } : {}) });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'forbidden', message: expect.any(String) });
    }
    expect(await likeCount()).toBe(before);
  });

  it.each([
    ['evil', 'evil'], ['an unclosed IPv6 host', 'http://[::1'], ['javascript:', 'javascript:alert(1)'], ['file:', 'file://'],
    ['a scheme-relative host', '//localhost'], ['5,000 characters', 'x'.repeat(5000)], ['a look-alike host', 'http://localhost.evil.example'],
  ])('answers a malformed or foreign Origin (%s) with 403 JSON, never 500', async (_label, origin) => {
      const before = await likeCount();
      const res = await member.post('/api/like.php', { profile_id: otherId }, { origin });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(await likeCount()).toBe(before);
    });

  it('still accepts the site’s own origin and requests without one', async () => {
    expect((await member.post('/api/like.php', { profile_id: otherId }, { origin: 'http://localhost' })).status).toBe(200);
    expect((await member.delete('/api/like.php', { profile_id: otherId })).status).toBe(200);
    // Reading is never refused by origin.
    expect((await member.get('/api/user.php', { origin: 'null' })).status).toBe(200);
  });

  it('takes JSON only as application/json (with parameters), not as a type that merely mentions it', async () => {
    const before = await likeCount();
    for (const type of ['text/plain; application/json', 'text/plain;application/json', 'application/jsonp', 'application/json-patch+json', 'multipart/form-data; boundary=application/json']) {
      const res = await member.post('/api/like.php', { profile_id: otherId }, { 'content-type': type });
      expect(res.status, type).toBe(415);
      expect(res.body.error.code).toBe('json_required');
    }
    expect(await likeCount()).toBe(before);
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
      expect((await member.post('/api/like.php', { profile_id: otherId }, { 'content-type': type })).status, type).toBe(200);
      expect((await member.delete('/api/like.php', { profile_id: otherId })).status).toBe(200);
    }
  });
});
