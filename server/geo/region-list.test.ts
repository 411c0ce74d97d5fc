import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { COUNTRIES } from '#common/constants.ts';
import { profiles, regions } from '../db/schema.ts';
import { REGION_POINTS } from '../landers/region-points.ts';
import { ADMIN_REGIONS } from './admin-regions.ts';
import { displayName, REGIONS, regionsOf } from './region-list.ts';
import { syncRegions } from './regions-sync.ts';
import { createTestApp, DATABASE_KINDS, type DatabaseKind, type TestApp } from '../../tests/helpers/test-app.ts';

describe('the region list (ISO 3166-2)', () => {
  it('offers every state, province or county of the countries members come from', () => {
    const count = (country: string) => regionsOf(country).length;
    expect(count('DE')).toBe(16);
    expect(count('NL')).toBe(12);
    expect(count('AT')).toBe(9);
    expect(count('BE')).toBe(11);
    expect(count('IT')).toBe(20);
    expect(count('ES')).toBe(19);
    expect(count('IE')).toBe(26);
    expect(count('CH')).toBe(26);
    expect(count('PL')).toBe(16);
    expect(count('SE')).toBe(21);
    expect(count('DK')).toBe(5);
    expect(count('US')).toBe(51);
    expect(count('CA')).toBe(13);
    expect(count('AU')).toBe(8);
    for (const country of COUNTRIES) expect(count(country), country).toBeGreaterThanOrEqual(5);
  });

  it('leaves out parts with a country code of their own and the groups above the level people name', () => {
    const codes = (country: string) => regionsOf(country).map((r) => r.code);
    expect(codes('NL')).not.toContain('AW');
    expect(codes('NL')).not.toContain('BQ1');
    expect(codes('US')).not.toContain('PR');
    expect(codes('BE')).not.toContain('VLG');
    expect(codes('GB')).not.toContain('ENG');
    expect(codes('IE')).not.toContain('L');
    expect(codes('DK').every((code) => code.length === 2)).toBe(true);
    expect(codes('FR')).not.toContain('NC');
    expect(codes('FI')).not.toContain('01');
  });

  it('names each region once per country, in the form people write it', () => {
    for (const country of COUNTRIES) {
      const names = regionsOf(country).map((r) => r.name);
      expect(new Set(names).size, country).toBe(names.length);
      for (const name of names) expect(name, country).not.toMatch(/, (?:de|of|The)$|\(|^Region /);
    }
    expect(regionsOf('ES').map((r) => r.name)).toEqual(expect.arrayContaining(['Comunidad de Madrid', 'Principado de Asturias', 'Comunidad Valenciana']));
    expect(regionsOf('DK').map((r) => r.name)).toEqual(['Hovedstaden', 'Midtjylland', 'Nordjylland', 'Sjælland', 'Syddanmark']);
  });

  it('turns inverted and bilingual ISO names around', () => {
    expect(displayName('Madrid, Comunidad de')).toBe('Comunidad de Madrid');
    expect(displayName('Bristol, City of')).toBe('City of Bristol');
    expect(displayName('Durham, County')).toBe('County Durham');
    expect(displayName('Vale of Glamorgan, The')).toBe('The Vale of Glamorgan');
    expect(displayName("Valle d'Aosta, Vallée d'Aoste")).toBe("Valle d'Aosta");
    expect(displayName('Armagh City, Banbridge and Craigavon')).toBe('Armagh City, Banbridge and Craigavon');
    expect(displayName('Guyane (française)')).toBe('Guyane');
    expect(displayName('Region Hovedstaden')).toBe('Hovedstaden');
  });

  it('knows every region the geocoder and the map lander name', () => {
    for (const [country, divisions] of Object.entries(ADMIN_REGIONS)) {
      for (const { site } of Object.values(divisions)) {
        if (site) expect(REGIONS.some((r) => r.country === country && r.code === site), `${country}-${site}`).toBe(true);
      }
    }
    for (const [country, points] of Object.entries(REGION_POINTS)) {
      for (const name of Object.keys(points)) expect(regionsOf(country).map((r) => r.name), `${country} ${name}`).toContain(name);
    }
  });
});

describe.each(DATABASE_KINDS)('bringing a database to the region list (%s)', (kind: DatabaseKind) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(kind, { profiles: 2 }); });
  afterAll(async () => t.close());

  it('adds, renames (with the profiles that carry the name) and removes regions, and a second run changes nothing', async () => {
    const { db } = t.database;
    // A database seeded by an earlier release: a few regions per country, some under other codes or names.
    await db.delete(regions);
    await db.insert(regions).values([
      { country: 'DE', code: 'BY', name: 'Bayern' },
      { country: 'ES', code: 'MD', name: 'Madrid' },
      { country: 'AT', code: 'W', name: 'Wien' },
    ]);
    await db.update(profiles).set({ country: 'ES', region: 'Madrid' }).where(eq(profiles.userId, t.demoUserId));

    expect(await syncRegions(db)).toEqual({ added: REGIONS.length - 2, renamed: 1, removed: 1 });
    const stored = await db.select().from(regions);
    expect(stored).toHaveLength(REGIONS.length);
    expect(stored.filter((r) => r.country === 'DE')).toHaveLength(16);
    expect(stored.find((r) => r.country === 'AT' && r.code === 'W')).toBeUndefined();
    expect(stored.find((r) => r.country === 'AT' && r.code === '9')?.name).toBe('Wien');
    const [profile] = await db.select({ region: profiles.region }).from(profiles).where(eq(profiles.userId, t.demoUserId));
    expect(profile.region).toBe('Comunidad de Madrid');

    expect(await syncRegions(db)).toEqual({ added: 0, renamed: 0, removed: 0 });
  });

  it('serves all sixteen German states to members', async () => {
    const body = (await t.client().get('/api/regions.php?country=de')).body;
    expect(body.regions).toHaveLength(16);
  });
});
