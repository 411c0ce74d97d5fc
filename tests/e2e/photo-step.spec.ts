import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { asNewVisitor, signUpByApi } from './account-helpers.ts';
import { expect, test } from './fixtures.ts';

/** A landscape photo, red on the left half and blue on the right: where the crop went shows in the stored colours. */
const wide = () => sharp({ create: { width: 900, height: 500, channels: 3, background: '#0000ff' } })
  .composite([{ input: { create: { width: 450, height: 500, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
  .jpeg({ quality: 90 }).toBuffer();
/** A portrait photo in green. */
const tall = () => sharp({ create: { width: 400, height: 700, channels: 3, background: '#00a000' } }).png().toBuffer();

/** Drops files on the drop zone as a file manager would. */
async function dropFiles(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
    return dt;
  }, files.map((f) => ({ name: f.name, mimeType: f.mimeType, data: f.buffer.toString('base64') })));
  const zone = page.getByTestId('photo-drop-zone');
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer: transfer });
}

type Own = { id: number; filename: string; is_main: boolean };
const ownPhotos = async (page: Page): Promise<Own[]> => (await (await page.request.get('/api/photos.php', { headers: { 'X-Request-Type': 'client' } })).json()).photos;
async function stored(page: Page, photo: Own) {
  const res = await page.request.get(`/photos/${photo.filename}`);
  expect(res.status()).toBe(200);
  const bytes = await res.body();
  const [meta, stats] = await Promise.all([sharp(bytes).metadata(), sharp(bytes).stats()]);
  return { width: meta.width!, height: meta.height!, rgb: stats.channels.slice(0, 3).map((c) => Math.round(c.mean)) };
}

test('the photo step: two dropped photos, one moved and zoomed in its 5:6 frame, put in order on the server', { tag: '@phone' }, async ({ page, shot }, info) => {
  test.slow();
  const mobile = info.project.name === 'mobile';
  const headers = await asNewVisitor(page);
  await signUpByApi(page, headers, 'photostep', info.project.name);
  await page.goto('/complete-signup');
  await expect(page.getByTestId('signup-flow')).toHaveAttribute('data-step', 'photo');
  // The camera is offered where there is one at hand.
  await expect(page.getByTestId('photo-camera')).toHaveCount(mobile ? 1 : 0);
  if (mobile) await expect(page.locator('#signup-photo-camera')).toHaveAttribute('capture', 'user');
  await expect(page.getByTestId('photo-drop-zone')).toContainText('Drag your photos here, or choose them from your device.');
  await shot('photo-step-drop');

  await dropFiles(page, [
    { name: 'beach.jpg', mimeType: 'image/jpeg', buffer: await wide() },
    { name: 'park.png', mimeType: 'image/png', buffer: await tall() },
  ]);
  const crop = page.getByTestId('signup-photo-crop');
  await expect(crop).toContainText('Photo 1 of 2');
  // Zoomed in twice, then the photo is dragged to the right and moved on with the arrow keys: the frame ends on its
  // red left half.
  const cropper = page.getByTestId('photo-cropper');
  await expect(page.getByTestId('signup-photo-upload')).toBeEnabled();
  await page.getByLabel('Zoom').fill('2');
  await expect(cropper).toHaveAttribute('data-zoom', '2.00');
  const frame = page.getByTestId('photo-crop-frame');
  const box = (await frame.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 100, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await frame.focus();
  for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');
  await shot('photo-step-crop');

  const upload = async () => {
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/photos.php') && r.request().method() === 'POST');
    await page.getByTestId('signup-photo-upload').click();
    expect((await answer).status()).toBe(201);
  };
  await upload();
  await expect(crop).toContainText('Photo 2 of 2');
  await upload();
  await expect(crop).toHaveCount(0);
  const items = page.getByTestId('photo-order-item');
  await expect(items).toHaveCount(2);

  const [beach, park] = await ownPhotos(page);
  expect([beach.is_main, park.is_main]).toEqual([true, false]);
  // Both are stored as 5:6; the zoomed one is the framed quarter (208 × 250 image pixels, as 205 × 246), in red.
  const beachFile = await stored(page, beach);
  expect([beachFile.width, beachFile.height]).toEqual([205, 246]);
  expect(beachFile.rgb[0]).toBeGreaterThan(200);
  expect(beachFile.rgb[2]).toBeLessThan(60);
  expect(await stored(page, park)).toMatchObject({ width: 400, height: 480 });

  // The second photo moves forward and becomes the main photo, on the server too.
  const saved = () => page.waitForResponse((r) => r.url().endsWith('/api/photo-order.php') && r.request().method() === 'PUT');
  let answer = saved();
  await items.nth(1).getByRole('button', { name: 'Move photo 2 forward' }).click();
  expect((await answer).status()).toBe(200);
  await expect(page.getByTestId('photo-order-announcement')).toHaveText('Photo moved to place 1 of 2.');
  await expect(items.first()).toHaveAttribute('data-photo-id', String(park.id));
  await expect(items.first()).toHaveAttribute('data-main', 'true');
  let order = await ownPhotos(page);
  expect(order.map((p) => [p.id, p.is_main])).toEqual([[park.id, true], [beach.id, false]]);
  const main = await stored(page, order[0]);
  expect(main.width * 6).toBe(main.height * 5);
  await shot('photo-step-order');

  if (!mobile) {
    // With a mouse, a photo is dragged into place.
    answer = saved();
    await items.nth(1).dragTo(items.first());
    expect((await answer).status()).toBe(200);
    await expect(items.first()).toHaveAttribute('data-photo-id', String(beach.id));
    order = await ownPhotos(page);
    expect(order.map((p) => [p.id, p.is_main])).toEqual([[beach.id, true], [park.id, false]]);
  }

  await page.getByTestId('signup-photo-next').click();
  await expect(page.getByTestId('signup-flow')).toHaveAttribute('data-step', 'looking');
});
