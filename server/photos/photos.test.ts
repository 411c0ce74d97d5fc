import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { auditLog, photos, profiles, sites, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';
import { createStaff } from '../../tests/helpers/staff.ts';


/** A JPEG as a phone writes it: EXIF with camera make, GPS position and a 90° orientation flag. */
async function phoneJpeg(width = 300, height = 200) {
  return sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 12/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 0/1' } })
    .jpeg()
    .toBuffer();
}
const smallPng = (color = '#3a6') => sharp({ create: { width: 64, height: 64, channels: 3, background: color } }).png().toBuffer();
/** The GPS IFD pointer tag (0x8825) in either byte order. */
const hasGpsTag = (b: Buffer) => b.includes(Buffer.from([0x25, 0x88])) || b.includes(Buffer.from([0x88, 0x25]));

async function upload(t: TestApp, client: TestClient, bytes: Buffer, options: { name?: string; type?: string; isPrivate?: boolean; headers?: Record<string, string> } = {}) {
  const form = new FormData();
  form.set('photo', new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/jpeg' }), options.name ?? 'photo.jpg');
  if (options.isPrivate) form.set('private', '1');
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await t.app.request('http://localhost/api/photos.php', {
    method: 'POST', body: form, headers: { host: 'localhost', cookie, ...options.headers },
  });
  return { status: res.status, body: await res.json() as any };
}

describe.each(DATABASE_KINDS)('photos on %s (a site that moderates before publication)', (kind) => {
  let t: TestApp;
  let auth: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 2 });
    auth = (await createStaff(t, { roles: ['moderator'], siteIds: [t.siteId] })).bearer;
    await t.database.db.update(sites).set({ photoModeration: 'before' }).where(eq(sites.id, t.siteId));
    await t.services.settings.invalidateSites();
  });
  afterAll(() => t.close());

  const makePremium = (id: number) => t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, id));
  const approve = (id: number) => t.client().post('/api/moderation.php', { id, action: 'approve' }, auth);
  const file = async (client: TestClient, name: string) => {
    const res = await client.get(`/photos/${name}`);
    return res;
  };

  it('stores an uploaded JPEG as a rotated WebP without any metadata (GPS included) and makes it the pending main photo', async () => {
    const { client, user } = await signUp(t);
    const input = await phoneJpeg();
    expect(hasGpsTag((await sharp(input).metadata()).exif!)).toBe(true);
    const res = await upload(t, client, input);
    expect(res.status).toBe(201);
    expect(res.body.photo).toMatchObject({ status: 'pending', is_private: false, filename: expect.stringMatching(/\.webp$/), thumb_filename: expect.stringMatching(/_t\.webp$/) });
    const stored = await t.services.storage.get(res.body.photo.filename);
    const meta = await sharp(stored!).metadata();
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([200, 300]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(hasGpsTag(stored!)).toBe(false);
    expect(stored!.includes(Buffer.from('TestCam'))).toBe(false);
    const thumb = await sharp((await t.services.storage.get(res.body.photo.thumb_filename))!).metadata();
    expect([thumb.format, thumb.width, thumb.height, thumb.exif]).toEqual(['webp', 200, 240, undefined]);
    // The owner sees the pending main photo; nobody else does, and the file is not served to them.
    const me = (await client.get('/api/user.php')).body.user;
    expect(me.profile.main_image).toMatchObject({ filename: res.body.photo.filename, status: 'pending' });
    const other = await signUp(t);
    expect((await other.client.get(`/api/profile.php?id=${user.id}`)).body.profile).toMatchObject({ main_image: null, photos: [] });
    expect((await file(other.client, res.body.photo.filename)).status).toBe(404);
    expect((await file(t.client(), res.body.photo.filename)).status).toBe(404);
    const own = await file(client, res.body.photo.filename);
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    // Approved: everybody sees it, and the file may be cached.
    expect((await approve(res.body.photo.id)).body.photo).toEqual({ id: res.body.photo.id, status: 'active' });
    expect((await other.client.get(`/api/profile.php?id=${user.id}`)).body.profile.main_image).toMatchObject({ status: 'active' });
    const open = await file(t.client(), res.body.photo.thumb_filename);
    expect(open.status).toBe(200);
    expect(open.headers.get('cache-control')).toBe('private, no-cache');
    expect(open.headers.get('etag')).toBeTruthy();
  });

  it('judges the content, not the name: a text file called .jpg, an SVG and an empty field are refused', async () => {
    const { client, user } = await signUp(t);
    const text = await upload(t, client, Buffer.from('this is not a photo at all, just text'), { name: 'holiday.jpg', type: 'image/jpeg' });
    expect(text.status).toBe(415);
    expect(text.body.error).toEqual({ code: 'photo_invalid', message: 'This file is not a photo. Upload a JPEG, PNG, WebP, HEIF, AVIF or GIF image.' });
    const svg = await upload(t, client, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'), { name: 'a.png', type: 'image/png' });
    expect(svg.body.error.code).toBe('photo_invalid');
    const form = new FormData();
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const empty = await t.app.request('http://localhost/api/photos.php', { method: 'POST', body: form, headers: { host: 'localhost', cookie } });
    expect(((await empty.json()) as any).error.code).toBe('photo_missing');
    expect(await t.database.db.$count(photos, eq(photos.userId, user.id))).toBe(0);
  });

  it('refuses oversized files and images with too many pixels, in the member\'s language', async () => {
    const { client, user } = await signUp(t);
    const huge = Buffer.alloc(16 * 1024 * 1024, 7);
    const big = await upload(t, client, huge);
    expect(big.status).toBe(413);
    expect(big.body.error).toEqual({ code: 'photo_too_large', message: 'This photo is too large. The maximum is 15 MB.' });
    // A lying Content-Length is refused before the body is read as well.
    const declared = await upload(t, client, await smallPng(), { headers: { 'content-length': String(50 * 1024 * 1024) } });
    expect(declared.body.error.code).toBe('photo_too_large');
    const pixels = await sharp({ create: { width: 8000, height: 5100, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
    const many = await upload(t, client, pixels, { name: 'big.png', type: 'image/png', headers: { 'accept-language': 'de' } });
    expect(many.status).toBe(400);
    expect(many.body.error.code).toBe('photo_too_many_pixels');
    expect(await t.database.db.$count(photos, eq(photos.userId, user.id))).toBe(0);
  });

  it('limits free members to 3 photos and no private ones, premium members to 25', async () => {
    const free = await signUp(t);
    for (let i = 0; i < 3; i++) expect((await upload(t, free.client, await smallPng())).status).toBe(201);
    const fourth = await upload(t, free.client, await smallPng());
    expect(fourth.status).toBe(403);
    expect(fourth.body.error).toEqual({ code: 'photo_limit_reached', message: 'You have reached your photo limit (3 photos). Delete a photo or become premium to upload more.' });
    const list = (await free.client.get('/api/photos.php')).body;
    expect(list.limit).toBe(3);
    expect(list.photos).toHaveLength(3);
    // Deleting makes room again.
    expect((await free.client.delete('/api/photos.php', { id: list.photos[2].id })).body.photos).toHaveLength(2);
    const priv = await upload(t, free.client, await smallPng(), { isPrivate: true });
    expect(priv.status).toBe(403);
    expect(priv.body.error.code).toBe('premium_required');
    expect((await upload(t, free.client, await smallPng())).status).toBe(201);

    const premium = await signUp(t);
    await makePremium(premium.user.id);
    const png = await smallPng('#55f');
    const results = [];
    for (let i = 0; i < 25; i++) results.push((await upload(t, premium.client, png, { isPrivate: i % 2 === 1 })).status);
    expect(results.every((s) => s === 201)).toBe(true);
    const over = await upload(t, premium.client, png);
    expect(over.status).toBe(403);
    expect(over.body.error.message).toContain('25');
    expect((await premium.client.get('/api/photos.php')).body.limit).toBe(25);
  });

  it('shows the main photo to all, further and private photos only to premium members (locked placeholders otherwise)', async () => {
    const owner = await signUp(t);
    await makePremium(owner.user.id);
    const main = (await upload(t, owner.client, await smallPng('#111'))).body.photo;
    const second = (await upload(t, owner.client, await smallPng('#222'))).body.photo;
    const secret = (await upload(t, owner.client, await smallPng('#333'), { isPrivate: true })).body.photo;
    expect(secret).toMatchObject({ is_private: true, is_main: false });
    for (const p of [main, second, secret]) await approve(p.id);
    // The main photo cannot become private, a private photo cannot become main.
    expect((await owner.client.put('/api/photos.php', { id: main.id, private: true })).body.error.code).toBe('photo_private_main');
    expect((await owner.client.put('/api/photos.php', { id: secret.id, main: true })).body.error.code).toBe('photo_private_main');

    const visitor = (await t.client().get(`/api/profile.php?id=${owner.user.id}`)).body.profile.photos;
    expect(visitor.map((p: any) => [p.id, p.locked, p.filename])).toEqual([[main.id, null, main.filename], [second.id, 'login', null], [secret.id, 'login', null]]);
    const freeViewer = await signUp(t);
    const seenByFree = (await freeViewer.client.get(`/api/profile.php?id=${owner.user.id}`)).body.profile.photos;
    expect(seenByFree.map((p: any) => p.locked)).toEqual([null, 'premium', 'premium']);
    expect((await file(freeViewer.client, secret.filename)).status).toBe(404);
    expect((await file(freeViewer.client, second.filename)).status).toBe(404);
    const premiumViewer = await signUp(t);
    await makePremium(premiumViewer.user.id);
    const seenByPremium = (await premiumViewer.client.get(`/api/profile.php?id=${owner.user.id}`)).body.profile.photos;
    expect(seenByPremium.map((p: any) => [p.locked, p.filename])).toEqual([[null, main.filename], [null, second.filename], [null, secret.filename]]);
    expect((await file(premiumViewer.client, secret.filename)).status).toBe(200);
    // Setting another main photo and making a photo private.
    await owner.client.put('/api/photos.php', { id: second.id, main: true });
    expect((await t.client().get(`/api/profile.php?id=${owner.user.id}`)).body.profile.main_image.filename).toBe(second.filename);
    await owner.client.put('/api/photos.php', { id: main.id, private: true });
    expect((await file(freeViewer.client, main.filename)).status).toBe(404);
  });

  it('lets moderators of the site list, approve and reject; a rejected main photo is replaced', async () => {
    const { client, user } = await signUp(t);
    const first = (await upload(t, client, await smallPng('#a00'))).body.photo;
    const second = (await upload(t, client, await smallPng('#0a0'))).body.photo;
    expect((await t.client().get('/api/moderation.php')).status).toBe(401);
    expect((await client.get('/api/moderation.php')).status).toBe(401);
    expect((await t.client().get('/api/moderation.php', { authorization: 'Bearer amora_st_wrong-token-wrong-token-wrong' })).status).toBe(401);
    expect((await t.client().get('/api/moderation.php', (await createStaff(t, { roles: ['support', 'finance'] })).bearer)).status).toBe(403);
    // A moderator of another site sees none of this site's photos, cannot fetch or decide them; nothing changes.
    const elsewhere = (await createStaff(t, { roles: ['moderator'], siteIds: [t.siteId + 1000] })).bearer;
    expect((await t.client().get('/api/moderation.php', elsewhere)).body.photos).toEqual([]);
    expect((await t.client().get(`/api/moderation.php?file=${first.filename}`, elsewhere)).status).toBe(404);
    expect((await t.client().post('/api/moderation.php', { id: first.id, action: 'reject' }, elsewhere)).status).toBe(404);
    expect((await t.database.db.select({ reviewed: photos.reviewed }).from(photos).where(eq(photos.id, first.id)))[0].reviewed).toBe(false);
      const pending = (await t.client().get('/api/moderation.php', auth)).body.photos.map((p: any) => p.id);
    expect(pending).toEqual(expect.arrayContaining([first.id, second.id]));
    const bytes = await t.client().get(`/api/moderation.php?file=${first.filename}`, auth);
    expect(bytes.status).toBe(200);
    expect((await t.client().post('/api/moderation.php', { id: first.id, action: 'reject' }, auth)).body.photo.status).toBe('rejected');
    // The decision is in the audit log, under the moderator's name, with the change.
    const [audited] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'photo.reject'), eq(auditLog.objectId, String(first.id))));
    expect(audited).toMatchObject({ role: 'moderator', memberId: user.id, after: { status: 'rejected', reviewed: true } });
    expect(audited.staffId).not.toBeNull();
    const [profile] = await t.database.db.select({ main: profiles.mainPhotoId }).from(profiles).where(eq(profiles.userId, user.id));
    expect(profile.main).toBe(second.id);
    expect((await t.client().post('/api/moderation.php', { id: 999999, action: 'approve' }, auth)).status).toBe(404);
  });

  it('needs a session to upload', async () => {
    const res = await upload(t, t.client(), await smallPng());
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('authentication_required');
  });
});

describe.each(DATABASE_KINDS)('photos on %s with moderation after publication (the default)', (kind) => {
  let t: TestApp;
  let auth: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    auth = (await createStaff(t, { roles: ['moderator'] })).bearer;
  });
  afterAll(() => t.close());
  const queue = async () => (await t.client().get('/api/moderation.php', auth)).body.photos.map((p: { id: number }) => p.id);

  it('shows a new member\'s photo to everyone at once and puts it in the review queue', async () => {
    const { client, user } = await signUp(t);
    const res = await upload(t, client, await smallPng('#36a'));
    expect(res.status).toBe(201);
    expect(res.body.photo).toMatchObject({ status: 'active', is_main: true });
    expect((await t.client().get('/api/moderation.php', auth)).body.photos).toEqual([
      expect.objectContaining({ id: res.body.photo.id, status: 'active' }),
    ]);
    // Visitors and other members see it: the public main photo, and the profile's main image.
    expect((await t.client().get(`/photos/${res.body.photo.filename}`)).status).toBe(200);
    const viewer = await signUp(t);
    const seen = (await viewer.client.get(`/api/profile.php?id=${user.id}`)).body.profile;
    expect(seen.main_image).toMatchObject({ filename: res.body.photo.filename, status: 'active' });
    expect(seen.photos).toEqual([expect.objectContaining({ id: res.body.photo.id, locked: null })]);
    const [row] = await t.database.db.select().from(photos).where(eq(photos.id, res.body.photo.id));
    expect(row).toMatchObject({ status: 'active', reviewed: false });

    // Approved: it stays, and leaves the queue.
    expect((await t.client().post('/api/moderation.php', { id: res.body.photo.id, action: 'approve' }, auth)).body.photo.status).toBe('active');
    expect(await queue()).not.toContain(res.body.photo.id);
  });

  it('takes a rejected photo away from everyone at once', async () => {
    const { client } = await signUp(t);
    const { photo } = (await upload(t, client, await smallPng('#a63'))).body;
    expect((await t.client().get(`/photos/${photo.filename}`)).status).toBe(200);
    expect((await t.client().post('/api/moderation.php', { id: photo.id, action: 'reject' }, auth)).body.photo.status).toBe('rejected');
    expect((await t.client().get(`/photos/${photo.filename}`)).status).toBe(404);
    expect(await queue()).not.toContain(photo.id);
    expect((await client.get('/api/photos.php')).body.photos).toEqual([expect.objectContaining({ id: photo.id, status: 'rejected', is_main: false })]);
  });

  it('keeps the member\'s order of their photos: the first public one is the main photo, on the profile too', async () => {
    const { client, user } = await signUp(t);
    const ids: number[] = [];
    for (const color of ['#111', '#222', '#333']) ids.push((await upload(t, client, await smallPng(color))).body.photo.id);
    const order = async () => (await client.get('/api/photos.php')).body.photos.map((p: { id: number; is_main: boolean }) => [p.id, p.is_main]);
    // New photos go last; the first is the main one.
    expect(await order()).toEqual([[ids[0], true], [ids[1], false], [ids[2], false]]);

    const res = await client.put('/api/photo-order.php', { order: [ids[2], ids[0], ids[1]] });
    expect(res.status).toBe(200);
    expect(res.body.photos.map((p: { id: number }) => p.id)).toEqual([ids[2], ids[0], ids[1]]);
    expect(await order()).toEqual([[ids[2], true], [ids[0], false], [ids[1], false]]);
    const viewer = await signUp(t);
    const seen = (await viewer.client.get(`/api/profile.php?id=${user.id}`)).body.profile;
    expect(seen.main_image).toMatchObject({ filename: res.body.photos[0].filename });
    expect(seen.photos.map((p: { id: number }) => p.id)).toEqual([ids[2], ids[0], ids[1]]);

    // "Make main photo" puts it first; a new upload goes last.
    expect((await client.put('/api/photos.php', { id: ids[1], main: true })).status).toBe(200);
    expect(await order()).toEqual([[ids[1], true], [ids[2], false], [ids[0], false]]);

    // A rejected first photo is not the main one: the next in order is.
    expect((await t.client().post('/api/moderation.php', { id: ids[1], action: 'reject' }, auth)).status).toBe(200);
    expect(await order()).toEqual([[ids[1], false], [ids[2], true], [ids[0], false]]);
    expect((await client.put('/api/photo-order.php', { order: [ids[1], ids[0], ids[2]] })).status).toBe(200);
    expect(await order()).toEqual([[ids[1], false], [ids[0], true], [ids[2], false]]);
  });

  it('refuses an order that leaves a photo out, names one twice or names another member\'s, and changes nothing', async () => {
    const { client } = await signUp(t);
    const other = await signUp(t);
    const mine: number[] = [];
    for (const color of ['#444', '#555']) mine.push((await upload(t, client, await smallPng(color))).body.photo.id);
    const theirs = (await upload(t, other.client, await smallPng('#666'))).body.photo.id;
    const before = (await client.get('/api/photos.php')).body;
    for (const order of [[mine[0]], [mine[0], mine[0]], [mine[1], mine[0], theirs], [mine[1], theirs], [mine[0], mine[1], 999999]]) {
      const res = await client.put('/api/photo-order.php', { order });
      expect(res.status, JSON.stringify(order)).toBe(400);
      expect(res.body.error.code).toBe('photo_order_invalid');
      expect(res.body.error.message).toBeTruthy();
    }
    for (const body of [{}, { order: [] }, { order: 'x' }, { order: [0] }, { order: [-1, 2] }, { order: [1.5] }, { order: Array.from({ length: 26 }, (_, i) => i + 1) }]) {
      const res = await client.put('/api/photo-order.php', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBeTruthy();
    }
    expect((await client.get('/api/photos.php')).body).toEqual(before);
    // Another member's order is theirs alone; a visitor has none.
    expect((await other.client.get('/api/photos.php')).body.photos.map((p: { id: number }) => p.id)).toEqual([theirs]);
    expect((await t.client().put('/api/photo-order.php', { order: [theirs] })).status).toBe(403);
  });
});
