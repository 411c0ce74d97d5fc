import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { PhotoStorage } from '../infra/storage.ts';
import { COUNTRIES } from '#common/constants.ts';
import type { Db } from '../db/client.ts';
import { companies, creditPackagePrices, creditPackages, discountCodes, photos, profiles, sites, users } from '../db/schema.ts';
import { ABOUT_TEXTS, DISCOUNT_CODES, FEMALE_NAMES, MALE_NAMES, PACKAGES } from './seed-data.ts';
import { regionsOf } from '../geo/region-list.ts';
import { syncRegions } from '../geo/regions-sync.ts';
import { addCredits } from '../credits/ledger.ts';
import { hashPassword } from '../accounts/passwords.ts';
import type { Clock } from '../infra/clock.ts';
import { importPageTokens, loadPageTokens } from '../landers/page-tokens.ts';
import { CONTENT_DIR } from '../paths.ts';
import { portraitSvg, seededRandom } from './portrait.ts';

// Every photo is processed once: libvips' operation cache (50 MB by default) would only hold memory.
sharp.cache(false);

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'amora-demo';
export const DEMO_CREDITS = 50;

/** Stores a photo as a WebP original and thumbnail with no metadata; returns the file names. */
export async function storeGeneratedPhoto(photosDir: string, svg: string, storage?: PhotoStorage) {
  const base = randomBytes(12).toString('base64url');
  const original = await sharp(Buffer.from(svg)).resize(500, 600).webp({ quality: 80 }).toBuffer();
  const thumb = await sharp(original).resize(200, 240).webp({ quality: 75 }).toBuffer();
  if (storage) {
    await storage.put(`${base}.webp`, original, 'image/webp');
    await storage.put(`${base}_t.webp`, thumb, 'image/webp');
  } else {
    await writeFile(join(photosDir, `${base}.webp`), original);
    await writeFile(join(photosDir, `${base}_t.webp`), thumb);
  }
  return { filename: `${base}.webp`, thumbFilename: `${base}_t.webp`, width: 500, height: 600 };
}

export async function isSeeded(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sites);
  return row.n > 0;
}

/** The demo site for localhost: company, settings, regions, bundles, demo profiles and the demo member. */
/** The demo site lets a new member send this many messages before buying credits. */
export const DEMO_FREE_MESSAGES = 3;
/** One seeded profile in this many is fictional. */
const FICTIONAL_EVERY = 12;

export async function seedDemoSite(db: Db, options: { photosDir: string; clock: Clock; profileCount?: number; storage?: PhotoStorage; freeMessages?: number }) {
  const { clock, photosDir } = options;
  const count = options.profileCount ?? 300;
  await mkdir(photosDir, { recursive: true });
  // Deterministic, so every fresh demo site looks the same.
  const rand = seededRandom(20261122);
  const now = clock();

  const [company] = await db.insert(companies).values({
    name: 'Amora Media B.V.', address: 'Herengracht 420', kvk: '12345678', city: 'Amsterdam', country: 'NL',
    tradenames: ['Amora'], vatNumbers: ['NL001234567B01'], supportPhone: '+31 20 123 45 67', deleteDiscount: 50,
    added: new Date('2024-03-01T12:00:00Z'),
  }).returning();
  const [site] = await db.insert(sites).values({
    domain: 'localhost', isDefault: true, companyId: company.id, name: 'Amora', indexTitle: 'Amora – meet, match and chat',
    description: 'Meet new people near you, like them and chat.', niche: 1, countries: COUNTRIES,
    supportEmail: 'support@example.com', supportPhone: '+31 20 123 45 67', mailName: 'Amora', messageCredits: 5,
    signupCredits: 0, freeMessages: options.freeMessages ?? DEMO_FREE_MESSAGES, fictionalIcon: '',
    // Switzerland and Norway pay more per credit-priced message than the rest.
    minimumMessageCosts: { CH: { costs: 6, currency: 'CHF' }, NO: { costs: 6, currency: 'NOK' } }, searchFields: ['gender', 'country', 'age'],
    visibleProfileFields: ['gender', 'sexuality', 'hair_color', 'eye_color', 'body_type', 'relationship_status', 'tattoos', 'interests'],
    // The demo site shares its members with the company's other sites that resell: a brand added to the demo
    // (`npm run sites:set -- <domain> --add`, which takes the default site's settings) shows the demo members too.
    memberResell: true,
  }).returning();

  await importPageTokens(db, loadPageTokens(join(CONTENT_DIR, 'page-tokens.json')));
  await syncRegions(db);

  for (const [i, p] of PACKAGES.entries()) {
    const [pkg] = await db.insert(creditPackages).values({ credits: p.credits, popular: p.popular, sort: i }).returning();
    await db.insert(creditPackagePrices).values(Object.entries(p.prices).map(([currency, amountCents]) => ({ packageId: pkg.id, currency, amountCents })));
  }

  await db.insert(discountCodes).values(DISCOUNT_CODES.map((d) => ({
    siteId: site.id, code: d.code, kind: d.kind, percentBp: d.percentBp, minimums: d.minimums ?? {}, country: d.country ?? null,
    expiresAt: d.expired ? new Date(now.getTime() - 86_400_000) : null, createdAt: now,
  })));

  const DEMO_MEMBERS_JOINED_BEFORE_MS = 14 * 86_400_000;
  // Demo profiles cannot log in: their password hash is not a valid argon2 string.
  const countries = COUNTRIES;
  for (let i = 0; i < count; i++) {
    const gender = rand() < 0.6 ? 'female' : 'male';
    const names = gender === 'female' ? FEMALE_NAMES : MALE_NAMES;
    const name = names[Math.floor(rand() * names.length)];
    const country = countries[Math.floor(rand() * countries.length)];
    const regionList = regionsOf(country);
    const age = 18 + Math.floor(rand() * 50);
    const birth = new Date(Date.UTC(now.getUTCFullYear() - age - 1, Math.floor(rand() * 12), 1 + Math.floor(rand() * 28)));
    // An hour apart, the newest a fortnight ago: the demo's members joined before a site's new-member period for
    // visitors (sites.visitorNewMemberDays), so that a fresh start shows them on the landers too.
    const created = new Date(now.getTime() - DEMO_MEMBERS_JOINED_BEFORE_MS - (count - i) * 3_600_000);
    const [user] = await db.insert(users).values({
      siteId: site.id, email: `member${i + 1}@demo.amora.invalid`, passwordHash: '!demo', status: 'active', signupDate: created,
    }).returning({ id: users.id });
    const stored = await storeGeneratedPhoto(photosDir, portraitSvg(rand, gender, age), options.storage);
    const [photo] = await db.insert(photos).values({ userId: user.id, ...stored, status: 'active', reviewed: true, createdAt: created }).returning({ id: photos.id });
    await db.insert(profiles).values({
      userId: user.id, name, gender, birthDate: birth.toISOString().slice(0, 10), country,
      region: regionList.length ? regionList[Math.floor(rand() * regionList.length)].name : null,
      about: ABOUT_TEXTS[Math.floor(rand() * ABOUT_TEXTS.length)], mainPhotoId: photo.id, createdAt: created,
      // One in twelve is a fictional profile (answered by the site's team), so that a fresh start shows its markings.
      fictional: i % FICTIONAL_EVERY === FICTIONAL_EVERY - 7,
    });
  }

  const [demo] = await db.insert(users).values({
    siteId: site.id, email: DEMO_EMAIL, passwordHash: await hashPassword(DEMO_PASSWORD), status: 'active', signupDate: now, language: 'en',
  }).returning({ id: users.id });
  await db.insert(profiles).values({
    userId: demo.id, name: 'Demo', gender: 'male', birthDate: `${now.getUTCFullYear() - 35}-05-15`, country: 'NL', region: 'Noord-Holland',
    about: 'I am the demo member of this site.', createdAt: now,
  });
  await db.transaction((tx) => addCredits(tx, demo.id, DEMO_CREDITS, 'demo_grant', String(demo.id)));
  // The planner's statistics for the members just written: without them it takes the tables for empty until
  // autovacuum gets round to them, and plans the search as a walk over every profile and a sort.
  await db.execute(sql`analyze ${users}, ${profiles}, ${photos}`);
  return { siteId: site.id, demoUserId: demo.id };
}
