import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { blocks, likes, messages, profiles, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient, type TestResponse } from '../../tests/helpers/test-app.ts';

const BIG = 2147483648; // 2^31: one past PostgreSQL's integer
const NUL = '\u0000';
const RLO = '\u202E';

const profileBody = {
  name: 'Marieke', gender: 'female', sexuality: 'bi', hair_color: 'red', eye_color: 'green', body_type: 'slim',
  relationship_status: 'living_together', tattoos: 'some', signup_reason: 'flirt', interests: ['music'],
  about: 'I love long walks.', country: 'NL', region: 'Utrecht',
};

function expectClientError(res: TestResponse, status?: number) {
  if (status) expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  expect(res.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
}

describe.each(DATABASE_KINDS)('bad input answers 400, never 500 (%s)', (kind) => {
  let t: TestApp;
  let member: TestClient;
  let memberId: number;
  let otherId: number;
  const stored = async () => {
    const db = t.database.db;
    const [m] = await db.select({ n: count() }).from(messages);
    const [l] = await db.select({ n: count() }).from(likes);
    const [b] = await db.select({ n: count() }).from(blocks);
    const [u] = await db.select({ n: count() }).from(users);
    const [p] = await db.select({ name: profiles.name, about: profiles.about }).from(profiles).where(eq(profiles.userId, memberId));
    return { messages: m.n, likes: l.n, blocks: b.n, users: u.n, profile: p };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3 });
    const a = await signUp(t);
    member = a.client;
    memberId = a.user.id;
    otherId = (await signUp(t)).user.id;
    expect((await member.put('/api/profile.php', profileBody)).status).toBe(200);
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  });

  it('refuses ids of 2^31 and more on every endpoint that takes one', async () => {
    const before = await stored();
    const key = { 'idempotency-key': 'bad-input-big-id-01' };
    const cases: [string, () => Promise<TestResponse>][] = [
      ['GET profile', () => member.get(`/api/profile.php?id=${BIG}`)],
      ['POST like', () => member.post('/api/like.php', { profile_id: BIG })],
      ['DELETE like', () => member.delete('/api/like.php', { profile_id: BIG })],
      ['POST block', () => member.post('/api/block.php', { profile_id: BIG })],
      ['DELETE block', () => member.delete('/api/block.php', { profile_id: BIG })],
      ['GET messages by profile', () => member.get(`/api/messages.php?profile=${BIG}`)],
      ['GET messages by conversation', () => member.get(`/api/messages.php?conversation=${BIG}`)],
      ['POST message', () => member.post('/api/messages.php', { profile_id: BIG, text: 'Hello' }, key)],
      ['DELETE chat', () => member.delete('/api/chat.php', { conversation: BIG })],
      ['DELETE photo', () => member.delete('/api/photos.php', { id: BIG })],
      ['PUT photo', () => member.put('/api/photos.php', { id: BIG, main: true })],
      ['POST order', () => member.post('/api/order.php', { package_id: BIG, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': 'bad-input-order-01' })],
      ['GET messages after', () => member.get(`/api/messages.php?profile=${otherId}&after=${BIG}`)],
    ];
    for (const [name, send] of cases) {
      const res = await send();
      expect(res.status, name).toBeLessThan(500);
      expectClientError(res, 400);
    }
    expect(await stored()).toEqual(before);
  });

  it.each([
    ['true', true], ['[1]', [1]], ['"1e2"', '1e2'], ['" 7 "', ' 7 '], ['"07"', '07'], ['0', 0], ['-1', -1], ['1.5', 1.5], ['2^53', 2 ** 53], ['{}', {}], ['null', null],
  ])('refuses %s as an id', async (_label, id) => {
    const before = await stored();
    expectClientError(await member.post('/api/like.php', { profile_id: id }), 400);
    expectClientError(await member.post('/api/block.php', { profile_id: id }), 400);
    expect(await stored()).toEqual(before);
  });

  it('still takes an id as a JSON number or a canonical decimal string', async () => {
    expect((await member.post('/api/like.php', { profile_id: otherId })).status).toBe(200);
    expect((await member.delete('/api/like.php', { profile_id: String(otherId) })).status).toBe(200);
    expect((await member.get(`/api/profile.php?id=${otherId}`)).status).toBe(200);
    expectClientError(await member.get(`/api/profile.php?id=%20${otherId}%20`), 400);
  });

  it('refuses a NUL byte in a name, about-me, message, log-in e-mail and search region', async () => {
    const before = await stored();
    expectClientError(await member.put('/api/profile.php', { ...profileBody, name: `Mari${NUL}eke` }), 400);
    expectClientError(await member.put('/api/profile.php', { ...profileBody, about: `Hello${NUL}` }), 400);
    expectClientError(await member.post('/api/messages.php', { profile_id: otherId, text: `Hi${NUL}there` }, { 'idempotency-key': 'bad-input-nul-msg-1' }), 400);
    expectClientError(await t.client().post('/api/user.php', { email: `demo${NUL}@example.com`, password: 'amora-demo' }), 400);
    expectClientError(await member.get(`/api/members.php?country=NL&countryregion=Utrecht%00`), 400);
    expect(await stored()).toEqual(before);
  });

  it('refuses names made of zero-width characters or with a right-to-left override, at sign-up and in the profile', async () => {
    const before = await stored();
    const signup = (name: string) => t.client().post('/api/signup.php', {
      email: `zw${Math.random().toString(36).slice(2)}@example.org`, name, password: 'correct horse battery', date_of_birth: '1990-04-12', gender: 'female', country: 'NL',
    });
    const zeroWidth = await signup('\u200B\u200C\u200D\u2060\uFEFF');
    expectClientError(zeroWidth, 400);
    expect(zeroWidth.body.error.code).toBe('name_too_short');
    const override = await signup(`Anna${RLO}gnp.exe`);
    expectClientError(override, 400);
    expect(override.body.error.code).toBe('text_invalid_characters');
    expectClientError(await member.put('/api/profile.php', { ...profileBody, name: 'A\u200B' }), 400);
    expectClientError(await member.put('/api/profile.php', { ...profileBody, name: `${RLO}Marieke` }), 400);
    expect(await stored()).toEqual(before);
  });

  it('refuses a tampered search cursor', async () => {
    const first = await member.get('/api/members.php');
    expect(first.status).toBe(200);
    const forged = [
      Buffer.from(`2026-01-01T00:00:00.000000Z|${BIG}`).toString('base64url'),
      Buffer.from('2026-02-30T00:00:00Z|5').toString('base64url'),
      Buffer.from('0000-01-01T00:00:00Z|5').toString('base64url'),
      Buffer.from('nonsense').toString('base64url'),
      '%25%25%25',
    ];
    for (const cursor of forged) expectClientError(await member.get(`/api/members.php?cursor=${cursor}`), 400);
  });

  it('refuses a payment webhook body that is null, an array or a number', async () => {
    for (const body of ['null', '[]', '42', '"tr_x"']) {
      const res = await t.app.request('http://localhost/api/payment-webhook.php?provider=test', {
        method: 'POST', headers: { host: 'localhost', 'content-type': 'application/json' }, body,
      });
      expect(res.status, body).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_input');
    }
  });

  it('refuses a malformed Origin header with 403, not 500', async () => {
    const before = await stored();
    const res = await member.post('/api/like.php', { profile_id: otherId }, { origin: 'evil' });
    expectClientError(res, 403);
    expect(await stored()).toEqual(before);
  });

  it('refuses NUL bytes in payment references and drops them from tracking parameters and mail reports', async () => {
    const before = await stored();
    expect((await member.get('/api/order.php?id=ord_%00')).status).toBe(404);
    expectClientError(await member.post('/api/test-checkout.php', { id: 'tr_\u0000', outcome: 'paid' }), 400);
    expectClientError(await member.post('/api/payment-webhook.php?provider=test', { id: 'tr_\u0000' }), 400);
    expect(await stored()).toEqual(before);
    // Tracking parameters come from anyone's landing URL: refused characters are dropped, the sign-up goes on.
    const landing = t.client();
    await landing.get('/api/settings.php?network=partner%00&ref=%E2%80%AEx');
    const signup = await landing.post('/api/signup.php', {
      email: 'tracked@example.org', name: 'Tracked', password: 'correct horse battery', date_of_birth: '1990-04-12', gender: 'female', country: 'NL',
      network: 'n\u0000', sub1: 'ok',
    });
    expect(signup.status).toBe(201);
  });

  it('keeps a bounce report with a NUL byte in its detail, and refuses one in its address', async () => {
    const secret = 'mail-webhook-secret-0123456789';
    const withSecret = await createTestApp(kind, { profiles: 0, env: { MAIL_WEBHOOK_SECRET: secret } });
    try {
      const post = (body: unknown) => withSecret.client().post('/api/mail-events.php', body, { 'x-mail-webhook-secret': secret });
      expect((await post({ email: 'demo@example.com', type: 'bounce', detail: 'mailbox\u0000 full' })).status).toBe(200);
      expectClientError(await post({ email: 'demo\u0000@example.com', type: 'bounce' }), 400);
    } finally {
      await withSecret.close();
    }
  });

  it('keeps line breaks in multi-line text and normalises to NFC', async () => {
    const res = await member.put('/api/profile.php', { ...profileBody, name: ' Rene\u0301 ', about: 'Line one\r\nLine two\tend' });
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({ name: 'René', about: 'Line one\nLine two\tend' });
  });
});
