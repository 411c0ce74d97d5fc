import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

const valid = {
  name: 'Marieke', gender: 'female', sexuality: 'bi', hair_color: 'red', eye_color: 'green', body_type: 'slim',
  relationship_status: 'living_together', tattoos: 'some', signup_reason: 'flirt', interests: ['music', 'wine', 'music'],
  about: 'I love long walks.', country: 'NL', region: 'Utrecht',
};

describe.each(DATABASE_KINDS)('profile editing on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  it('saves every member attribute and shows the ones the site makes visible', async () => {
    const { client, user } = await signUp(t);
    const res = await client.put('/api/profile.php', valid);
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ ...valid, interests: ['music', 'wine'], id: user.id });
    expect((await client.get('/api/profile.php')).body.profile).toEqual(res.body.profile);
    // Clearing a choice is allowed.
    expect((await client.put('/api/profile.php', { ...valid, tattoos: '', region: '' })).body.profile).toMatchObject({ tattoos: null, region: null });

    const viewer = await signUp(t);
    let seen = (await viewer.client.get(`/api/profile.php?id=${user.id}`)).body.profile;
    // The demo site shows all attributes but the reason for signing up.
    expect(seen.attributes).toEqual({ gender: 'female', sexuality: 'bi', hair_color: 'red', eye_color: 'green', body_type: 'slim', relationship_status: 'living_together' });
    expect(seen.interests).toEqual(['music', 'wine']);
    expect(seen.about).toBe('I love long walks.');
    await t.services.settings.updateSite(t.siteId, { visibleProfileFields: ['sexuality'] });
    seen = (await viewer.client.get(`/api/profile.php?id=${user.id}`)).body.profile;
    expect([seen.attributes, seen.interests]).toEqual([{ sexuality: 'bi' }, []]);
    // The owner always sees everything.
    expect((await client.get(`/api/profile.php?id=${user.id}`)).body.profile.attributes).toMatchObject({ signup_reason: 'flirt', eye_color: 'green' });
  });

  it('refuses bad input with translated field errors and changes nothing', async () => {
    const { client, user } = await signUp(t, { name: 'Original' });
    const before = (await client.get('/api/profile.php')).body.profile;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ sexuality: 'robot' }, 'sexuality', 'Choose one of the options in the list.'],
      [{ body_type: 'athletic' }, 'body_type', 'Choose one of the options in the list.'],
      [{ interests: ['music', 'skydiving'] }, 'interests.1', 'Choose one of the options in the list.'],
      [{ name: '@marieke' }, 'name', 'Your name cannot start with @.'],
      [{ name: user.email.toUpperCase() }, 'name', expect.any(String) as unknown as string],
      [{ about: 'x'.repeat(2001) }, 'about', 'Your text is too long. Keep it under 2,000 characters.'],
      [{ country: 'XX' }, 'country', expect.any(String) as unknown as string],
      [{ region: 'Bavaria' }, 'region', 'Choose a region of the country you selected.'],
      [{ gender: 'other' }, 'gender', expect.any(String) as unknown as string],
    ];
    for (const [change, field, message] of cases) {
      const res = await client.put('/api/profile.php', { ...valid, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.error.details[field], JSON.stringify(change)).toEqual(message);
    }
    const emailName = await client.put('/api/profile.php', { ...valid, name: user.email });
    expect(emailName.body.error.code).toBe('name_equals_email');
    const german = await client.put('/api/profile.php', { ...valid, sexuality: 'robot' }, { 'accept-language': 'de', cookie: '' });
    expect(german.status).toBe(403);
    expect((await client.get('/api/profile.php')).body.profile).toEqual(before);
    expect((await t.client().put('/api/profile.php', valid)).status).toBe(403);
  });
});
