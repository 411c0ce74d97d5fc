import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '#common/languages.ts';
import { addCredits } from '../credits/ledger.ts';
import { auditLog, gifts } from '../db/schema.ts';
import { createStaff, type TestStaff, refusal } from '../../tests/helpers/staff.ts';
import { pageRequests } from '../../tests/helpers/page-requests.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';


const NAMES = Object.fromEntries(LANGUAGE_CODES.map((l) => [l, `Teddy (${l})`]));
/** A gift as the console's form sends it. */
const GIFT = { names: NAMES, credits: '7', sort: '50', active: 'on' };
/** A phone picture: its metadata (the camera, where it was taken) must not reach anyone. */
const phonePng = () => sharp({ create: { width: 300, height: 200, channels: 4, background: '#c36' } })
  .withExifMerge({ IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 12/1' } }).png().toBuffer();

describe.each(DATABASE_KINDS)('the console\'s gifts on %s', (kind) => {
  let t: TestApp;
  let finance: TestStaff;
  const requests = pageRequests(() => t);
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, pages: true });
    finance = await createStaff(t, { roles: ['finance'] });
  });
  afterAll(() => t.close());

  const snapshot = async () => ({
    gifts: await t.database.db.select().from(gifts).orderBy(gifts.id),
    audit: await t.database.db.$count(auditLog),
  });
  const image = (path: string) => t.app.request(`http://localhost${path}`, { headers: { host: 'localhost' } });

  it('creates a gift with its names, image and price; members see it in the picker and sending it costs its credits', async () => {
    const { id } = await t.services.console.createGift(finance.actor, GIFT, await phonePng());
    const [row] = await t.database.db.select().from(gifts).where(eq(gifts.id, id));
    expect(row).toMatchObject({ names: NAMES, credits: 7, sort: 50, active: true, image: expect.stringMatching(/^gift-[a-f0-9]{24}\.webp$/) });

    const me = await signUp(t);
    const other = await signUp(t);
    const listed = (await me.client.get('/api/gifts.php')).body.gifts.find((g: { id: number }) => g.id === id);
    expect(listed).toEqual({ id, slug: row!.slug, image: `/gift-images/${row!.image}`, names: NAMES, credits: 7 });
    const file = await image(listed.image);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 192, height: 192 });
    expect(meta.exif).toBeUndefined();

    await t.database.db.transaction((tx) => addCredits(tx, me.user.id, 30, 'demo_grant', `gift-grant-${me.user.id}`));
    const sent = await me.client.post('/api/gift.php', { profile_id: other.user.id, gift_id: id }, { 'idempotency-key': 'console-gift-send-1' });
    expect(sent.status).toBe(201);
    expect(sent.body.credits).toBe(23);
    expect(sent.body.message.gift).toMatchObject({ id, names: NAMES });
    expect((await t.services.console.giftList(finance.actor)).find((g) => g.id === id)).toMatchObject({ sent: 1, credits: 7, builtIn: false });

    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'gift.create'));
    expect(audit).toMatchObject({ role: 'finance', objectType: 'gift', objectId: String(id), after: { names: NAMES, credits: 7, image: row!.image } });
  });

  it('edits and replaces the image (the old file goes), a built-in gift\'s price can be set, and a retired gift leaves the picker', async () => {
    const { id } = await t.services.console.createGift(finance.actor, GIFT, await phonePng());
    const [before] = await t.database.db.select().from(gifts).where(eq(gifts.id, id));
    expect(await t.services.console.updateGift(finance.actor, id, { ...GIFT, credits: '' }, null)).toEqual({ changed: ['credits'] });
    expect(await t.services.console.updateGift(finance.actor, id, { ...GIFT, credits: '' }, null)).toEqual({ changed: [] });
    expect(await t.services.console.updateGift(finance.actor, id, { ...GIFT, credits: '' }, await phonePng())).toEqual({ changed: ['image'] });
    const [after] = await t.database.db.select().from(gifts).where(eq(gifts.id, id));
    expect(after!.image).not.toBe(before!.image);
    expect((await image(`/gift-images/${before!.image}`)).status).toBe(404);
    expect((await image(`/gift-images/${after!.image}`)).status).toBe(200);
    const update = (await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'gift.update')).orderBy(auditLog.id))[0];
    expect(update).toMatchObject({ before: { credits: 7 }, after: { credits: null } });

    const me = await signUp(t);
    const builtIn = (await me.client.get('/api/gifts.php')).body.gifts.find((g: { names?: unknown }) => !g.names);
    const editor = await t.services.console.giftEditor(finance.actor, builtIn.id);
    expect(editor).toMatchObject({ builtIn: true, image: null });

    expect(await t.services.console.retireGift(finance.actor, id)).toEqual({ changed: true });
    expect(await t.services.console.retireGift(finance.actor, id)).toEqual({ changed: false });
    expect((await me.client.get('/api/gifts.php')).body.gifts.map((g: { id: number }) => g.id)).not.toContain(id);
    expect(await t.database.db.$count(auditLog, eq(auditLog.action, 'gift.retire'))).toBe(1);
  });

  it('refuses bad fields and images that are no images beside their fields, changing nothing', async () => {
    const { id } = await t.services.console.createGift(finance.actor, GIFT, await phonePng());
    const before = await snapshot();
    const png = await phonePng();
    const bad: [Record<string, unknown>, Record<string, string>][] = [
      [{ names: { ...NAMES, fi: '' } }, { names: 'errors.field_required' }],
      [{ names: { en: 'Teddy' } }, { names: 'errors.field_required' }],
      [{ names: { ...NAMES, de: 'x'.repeat(41) } }, { names: 'errors.field_too_long' }],
      [{ names: { ...NAMES, nl: 'Beer\u0007' } }, { names: 'errors.text_invalid_characters' }],
      [{ names: 'Teddy' }, { names: 'errors.field_required' }],
      [{ credits: '-1' }, { credits: 'errors.number_out_of_range' }],
      [{ credits: '2.5' }, { credits: 'errors.number_out_of_range' }],
      [{ credits: '99999999999999999999' }, { credits: 'errors.number_out_of_range' }],
      [{ sort: 'top' }, { sort: 'errors.number_out_of_range' }],
    ];
    for (const [change, fields] of bad) {
      expect(await refusal(t.services.console.createGift(finance.actor, { ...GIFT, ...change }, png)), JSON.stringify(change)).toEqual({ status: 400, code: 'invalid_input', fields });
      expect(await refusal(t.services.console.updateGift(finance.actor, id, { ...GIFT, ...change }, null))).toEqual({ status: 400, code: 'invalid_input', fields });
    }
    expect(await refusal(t.services.console.createGift(finance.actor, GIFT, null))).toEqual({ status: 400, code: 'invalid_input', fields: { image: 'errors.photo_missing' } });
    expect(await refusal(t.services.console.createGift(finance.actor, GIFT, Buffer.from('<svg onload="alert(1)"/>')))).toEqual({ status: 415, code: 'photo_invalid', fields: { image: 'errors.photo_invalid' } });
    expect(await refusal(t.services.console.updateGift(finance.actor, id, GIFT, Buffer.from('GIF89a not really')))).toMatchObject({ status: 415, fields: { image: 'errors.photo_invalid' } });
    for (const missing of [2_000_000_000]) {
      expect(await refusal(t.services.console.updateGift(finance.actor, missing, GIFT, null))).toMatchObject({ status: 404 });
      expect(await refusal(t.services.console.retireGift(finance.actor, missing))).toMatchObject({ status: 404 });
      expect(await refusal(t.services.console.giftEditor(finance.actor, missing))).toMatchObject({ status: 404 });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('gifts are shared by every site: finance of one site may read them but not change them; nobody else may read them', async () => {
    const { id } = await t.services.console.createGift(finance.actor, GIFT, await phonePng());
    const oneSite = await createStaff(t, { roles: ['finance'], siteIds: [t.siteId] });
    const support = await createStaff(t, { roles: ['support'] });
    const before = await snapshot();
    expect((await t.services.console.giftList(oneSite.actor)).some((g) => g.id === id)).toBe(true);
    for (const actor of [oneSite.actor, support.actor]) {
      expect(await refusal(t.services.console.createGift(actor, GIFT, await phonePng()))).toMatchObject({ status: 403 });
      expect(await refusal(t.services.console.updateGift(actor, id, { ...GIFT, credits: '1' }, null))).toMatchObject({ status: 403 });
      expect(await refusal(t.services.console.retireGift(actor, id))).toMatchObject({ status: 403 });
    }
    expect(await refusal(t.services.console.giftList(support.actor))).toMatchObject({ status: 403 });
    expect(await snapshot()).toEqual(before);
  });

  it('the image route serves only files a gift names, never another file of the same storage', async () => {
    const { id } = await t.services.console.createGift(finance.actor, GIFT, await phonePng());
    const [row] = await t.database.db.select().from(gifts).where(eq(gifts.id, id));
    expect((await image(`/gift-images/${row!.image}`)).status).toBe(200);
    // The file stays in the storage, but no gift names it any more.
    await t.database.db.update(gifts).set({ image: null }).where(eq(gifts.id, id));
    expect((await image(`/gift-images/${row!.image}`)).status).toBe(404);
    expect((await image('/gift-images/gift-000000000000000000000000.webp')).status).toBe(404);
    expect((await image('/gift-images/..%2Fsecret.webp')).status).toBe(404);
  });

  it('the gift pages: a new gift posted with its image, errors beside their fields, retirement; refused to others', async () => {
    const { cookie } = await finance.cookie();
    const post = (path: string, fields: Record<string, string>, file: Buffer | null, who = cookie) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, v);
      if (file) form.set('image', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'teddy.png');
      return t.app.request(`http://localhost${path}`, { method: 'POST', body: form, headers: { host: 'localhost', cookie: who } });
    };
    const names = Object.fromEntries(LANGUAGE_CODES.map((l) => [`names.${l}`, `Bear ${l}`]));
    const count = await t.database.db.$count(gifts);
    const bad = await post('/console/gifts/new', { intent: 'gift', ...names, 'names.pl': '', credits: '-3', sort: '0', active: 'on' }, await phonePng());
    expect(bad.status).toBe(400);
    const text = await requests.textOf(bad);
    expect(text).toContain('gift-credits-error');
    expect(text).toContain('gift-name-pl-error');
    expect(await t.database.db.$count(gifts)).toBe(count);
    const noImage = await post('/console/gifts/new', { intent: 'gift', ...names, credits: '', sort: '0', active: 'on' }, null);
    expect(noImage.status).toBe(400);
    expect(await requests.textOf(noImage)).toContain('gift-image-upload-error');

    const made = await post('/console/gifts/new', { intent: 'gift', ...names, credits: '', sort: '3', active: 'on' }, await phonePng());
    expect(made.status).toBe(302);
    const id = Number(/\/console\/gifts\/(\d+)\?saved=1/.exec(made.headers.get('location') ?? '')?.[1]);
    const page = await requests.textOf(await requests.page(`/console/gifts/${id}`, cookie));
    expect(page).toContain('value="Bear fi"');
    expect(page).toContain('/gift-images/gift-');
    expect(await requests.textOf(await requests.page('/console/gifts', cookie))).toContain('Bear en');

    const support = await createStaff(t, { roles: ['support'] });
    const oneSite = await createStaff(t, { roles: ['finance'], siteIds: [t.siteId] });
    expect((await requests.page('/console/gifts', (await support.cookie()).cookie)).status).toBe(403);
    expect((await requests.page('/console/gifts', (await oneSite.cookie()).cookie)).status).toBe(200);
    expect((await requests.page('/console/gifts/new', (await oneSite.cookie()).cookie)).status).toBe(403);
    expect((await post(`/console/gifts/${id}`, { intent: 'retire' }, null, (await oneSite.cookie()).cookie)).status).toBe(403);
    expect((await post(`/console/gifts/${id}`, { intent: 'retire' }, null)).status).toBe(200);
    expect((await t.database.db.select().from(gifts).where(eq(gifts.id, id)))[0]!.active).toBe(false);
    expect((await requests.page('/console/gifts/99999999999', cookie)).status).toBe(404);
  });

  it('the gift form takes an image up to its own ceiling; larger posts are refused before anything is stored, other console pages keep theirs', async () => {
    const { cookie } = await finance.cookie();
    const before = await snapshot();
    const big = (bytes: number) => {
      const form = new FormData();
      form.set('intent', 'gift');
      form.set('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'big.png');
      return form;
    };
    const post = (path: string, body: FormData) => t.app.request(`http://localhost${path}`, { method: 'POST', body, headers: { host: 'localhost', cookie } });
    expect((await post('/console/gifts/new', big(5 * 1024 * 1024))).status).toBe(413);
    // 200 KB passes the gift form's ceiling (and is then refused as no image), but not another page's.
    const small = await post('/console/gifts/new', big(200 * 1024));
    expect(small.status).toBe(400);
    expect((await post('/console/packages/new', big(200 * 1024))).status).toBe(413);
    expect(await snapshot()).toEqual(before);
  });
});
