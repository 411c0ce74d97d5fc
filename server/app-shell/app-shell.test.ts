import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, sites } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';

describe('the installable app: manifest, icons and offline page per site and language', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 0 });
    const [company] = await t.database.db.insert(companies).values({ name: 'Liefde B.V.', address: 'Kerkstraat 1', kvk: '87654321', city: 'Utrecht', country: 'NL' }).returning();
    await t.database.db.insert(sites).values({ domain: 'liefde.example', companyId: company.id, name: 'Liefde', description: '' });
  });
  afterAll(() => t.close());

  it('names the site that serves it, in the reader\'s language, with icons that exist at their stated sizes', async () => {
    const res = await t.client({ host: 'liefde.example', headers: { cookie: 'locale=nl' } }).get('/manifest.webmanifest');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = res.body;
    expect(manifest).toMatchObject({ name: 'Liefde', short_name: 'Liefde', lang: 'nl-NL', display: 'standalone', scope: '/', start_url: '/?source=app' });
    expect(manifest.description).toBe('Ontmoet mensen bij jou in de buurt en chat met ze.');
    expect(manifest.icons.map((i: { purpose: string }) => i.purpose).sort()).toEqual(['any', 'any', 'maskable', 'maskable']);
    for (const icon of manifest.icons as { src: string; sizes: string }[]) {
      const file = await t.app.request(`http://liefde.example${icon.src}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      const { width, height, format } = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      expect(`${width}x${height}`).toBe(icon.sizes);
      expect(format).toBe('png');
    }
    const other = (await t.client({ headers: { cookie: 'locale=de' } }).get('/manifest.webmanifest')).body;
    expect(other.name).not.toBe('Liefde');
    expect(other.lang).toMatch(/^de/);
    expect((await t.client().get('/app-icon-64.png')).status).toBe(404);
  });

  it('serves an offline page in the reader\'s language, without scripts, for the service worker to keep', async () => {
    const res = await t.client({ host: 'liefde.example', headers: { cookie: 'locale=fr' } }).get<string>('/offline');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Liefde</title>');
    expect(res.body).toContain('Vous êtes hors ligne');
    expect(res.body).not.toContain('<script');
  });
});
