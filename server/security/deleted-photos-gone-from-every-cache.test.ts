import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';
import { createStaff } from '../../tests/helpers/staff.ts';

const PASSWORD = 'correct horse battery';

const png = (color: string) => sharp({ create: { width: 64, height: 64, channels: 3, background: color } }).png().toBuffer();

async function upload(t: TestApp & { moderator?: { authorization: string } }, client: TestClient, options: { isPrivate?: boolean } = {}) {
  const form = new FormData();
  form.set('photo', new Blob([new Uint8Array(await png('#c3a'))], { type: 'image/png' }), 'p.png');
  if (options.isPrivate) form.set('private', '1');
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await t.app.request('http://localhost/api/photos.php', { method: 'POST', body: form, headers: { host: 'localhost', cookie } });
  expect(res.status).toBe(201);
  const { photo } = await res.json() as { photo: { id: number; filename: string; thumb_filename: string } };
  const approved = await t.client().post('/api/moderation.php', { id: photo.id, action: 'approve' }, t.moderator ??= (await createStaff(t, { roles: ['moderator'] })).bearer);
  expect(approved.status).toBe(200);
  return photo;
}

/** No shared cache may keep a photo its owner can still delete. */
function expectNotPubliclyCached(res: { headers: Headers }) {
  const cc = res.headers.get('cache-control') ?? '';
  expect(cc).toMatch(/\bprivate\b/);
  expect(cc).not.toMatch(/\bpublic\b/);
  expect(cc).not.toMatch(/immutable/);
  expect(cc).not.toMatch(/max-age=[1-9]/);
}

describe.each(DATABASE_KINDS)('deleted members\' photos are gone from every cache (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 2 });
  });
  afterAll(() => t.close());

  const premium = async () => {
    const m = await signUp(t);
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, m.user.id));
    return m;
  };

  it('serves a main photo 200 before and 404 right after the account is deleted, also on revalidation', async () => {
    const owner = await signUp(t);
    const main = await upload(t, owner.client);
    const gallery = await upload(t, owner.client);
    const viewer = await premium();
    const anon = t.client();

    const files = [main.filename, main.thumb_filename];
    const etags: string[] = [];
    for (const file of files) {
      const res = await anon.get(`/photos/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expectNotPubliclyCached(res);
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      etags.push(etag!);
      // The browser revalidates: a cheap 304 without the bytes.
      const again = await anon.get(`/photos/${file}`, { 'if-none-match': etag! });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expectNotPubliclyCached(again);
    }
    const galleryFiles = [gallery.filename, gallery.thumb_filename];
    for (const file of galleryFiles) {
      const res = await viewer.client.get(`/photos/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    }

    const deleted = await owner.client.delete('/api/user.php', { password: PASSWORD, reason: null });
    expect(deleted.status).toBe(200);

    for (const [i, file] of files.entries()) {
      expect((await anon.get(`/photos/${file}`)).status, file).toBe(404);
      expect((await anon.get(`/photos/${file}`, { 'if-none-match': etags[i] })).status, file).toBe(404);
      expect((await viewer.client.get(`/photos/${file}`)).status, file).toBe(404);
    }
    for (const file of galleryFiles) expect((await viewer.client.get(`/photos/${file}`)).status, file).toBe(404);
    // The files themselves are kept for the 14 days in which the account can come back.
    expect(await t.services.storage.get(main.filename)).not.toBeNull();
  });

  it('answers 404 at once for a single deleted photo, also on revalidation', async () => {
    const owner = await signUp(t);
    const main = await upload(t, owner.client);
    const res = await t.client().get(`/photos/${main.filename}`);
    expect(res.status).toBe(200);
    expectNotPubliclyCached(res);
    expect((await owner.client.delete('/api/photos.php', { id: main.id })).status).toBe(200);
    expect((await t.client().get(`/photos/${main.filename}`)).status).toBe(404);
    expect((await t.client().get(`/photos/${main.thumb_filename}`, { 'if-none-match': res.headers.get('etag')! })).status).toBe(404);
  });

  it('keeps the rules for private photos, blocked viewers and disabled profiles', async () => {
    const owner = await premium();
    const main = await upload(t, owner.client);
    const hidden = await upload(t, owner.client, { isPrivate: true });
    const free = await signUp(t);
    const paid = await premium();
    const blocked = await premium();
    expect((await owner.client.post('/api/block.php', { profile_id: blocked.user.id })).status).toBeLessThan(300);

    expect((await t.client().get(`/photos/${hidden.filename}`)).status).toBe(404);
    expect((await free.client.get(`/photos/${hidden.filename}`)).status).toBe(404);
    expect((await blocked.client.get(`/photos/${hidden.filename}`)).status).toBe(404);
    const seen = await paid.client.get(`/photos/${hidden.filename}`);
    expect(seen.status).toBe(200);
    expect(seen.headers.get('cache-control')).toBe('private, no-store');
    expect((await owner.client.get(`/photos/${hidden.filename}`)).status).toBe(200);

    // A disabled profile's photos are gone for everybody but the owner.
    await t.database.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, owner.user.id));
    expect((await t.client().get(`/photos/${main.filename}`)).status).toBe(404);
    expect((await paid.client.get(`/photos/${hidden.filename}`)).status).toBe(404);
    expect((await owner.client.get(`/photos/${main.filename}`)).status).toBe(200);
  });
});
