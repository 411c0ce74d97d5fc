import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { createStaff, type TestStaff } from '../../tests/helpers/staff.ts';

describe.each(DATABASE_KINDS)('page-bounce logging (?lb) on %s', (kind) => {
  let t: TestApp;
  let admin: TestStaff;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    admin = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId] });
  });
  afterAll(() => t.close());
  const operator = () => t.client({ headers: admin.bearer });

  it('stores each stay with the visitor\'s tracking; an admin of the site reads visits and median stay per page', async () => {
    const visitor = t.client();
    await visitor.get('/api/settings.php?network=adnet&ref=summer');
    for (const seconds of [2, 4, 30]) expect((await visitor.post('/api/page-bounce.php', { path: '/landers/gallery/women', seconds })).status).toBe(204);
    expect((await t.client().post('/api/page-bounce.php', { path: '/', seconds: 1 })).status).toBe(204);
    const report = (await operator().get('/api/page-bounce.php')).body;
    expect(report.paths).toEqual([
      { path: '/landers/gallery/women', visits: 3, median_seconds: 4 },
      { path: '/', visits: 1, median_seconds: 1 },
    ]);
    expect(report.latest[1]).toMatchObject({ path: '/landers/gallery/women', seconds: 30, network: 'adnet', ref: 'summer' });
  });

  it('refuses bad records and anyone but an admin of the site, storing nothing', async () => {
    const before = (await operator().get('/api/page-bounce.php')).body.latest.length;
    for (const body of [{ path: 'https://evil.example/', seconds: 1 }, { path: '/x', seconds: -1 }, { path: '/x', seconds: 1.5 }, { path: '/\u0000', seconds: 1 }, { path: `/${'a'.repeat(300)}`, seconds: 1 }, { seconds: 3 }]) {
      const res = await t.client().post('/api/page-bounce.php', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
    }
    expect((await t.client().get('/api/page-bounce.php')).status).toBe(401);
    expect((await t.client({ headers: { authorization: 'Bearer amora_st_wrong-token-wrong-token' } }).get('/api/page-bounce.php')).status).toBe(401);
    const moderator = await createStaff(t, { roles: ['moderator', 'support', 'finance'] });
    expect((await t.client({ headers: moderator.bearer }).get('/api/page-bounce.php')).status).toBe(403);
    const otherSite = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId + 1000] });
    expect((await t.client({ headers: otherSite.bearer }).get('/api/page-bounce.php')).status).toBe(403);
    expect((await operator().get('/api/page-bounce.php')).body.latest.length).toBe(before);
  });
});
