import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCredits } from '../credits/ledger.ts';
import { companies, likes, messages, sites } from '../db/schema.ts';
import { seedDemoSite } from '../seed/seed.ts';
import type { Site } from '../settings/settings.service.ts';
import { sitesCommand } from '../cli/sites-cli.ts';
import { cliDatabase, type CliDatabase } from '../../tests/helpers/cli.ts';
import { createTestApp, DATABASE_KINDS, signUp, testClock, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';

type Member = Awaited<ReturnType<typeof signUp>>;

/**
 * member_resell (decision 051): with it off, a site's members meet only each other; with it on, they meet the members
 * of their company's other sites that resell too, never another company's. Search, profiles, likes and messages
 * follow the one rule, for members and visitors alike, and prices stay those of each member's own site.
 */
describe.each(DATABASE_KINDS)('sites share their members only when they resell (%s)', (kind) => {
  let t: TestApp;
  let siteB: Site;
  let siteC: Site;
  let a: Member;
  let b: Member;
  let c: Member;
  let keys = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
    // Site B: another brand of the demo site's company, where a message costs 1 credit (5 on the demo site).
    siteB = await t.services.settings.addSite({ domain: 'b.test', name: 'Brand B', messageCredits: 1 });
    // Site C: another company's site, reselling its members among its own company's sites.
    const [other] = await t.database.db.insert(companies).values({ name: 'Other B.V.', address: 'Elsewhere 1', kvk: '87654321', city: 'Utrecht', country: 'NL' }).returning();
    siteC = await t.services.settings.addSite({ domain: 'c.test', name: 'Brand C' });
    await t.services.settings.updateSite(siteC.id, { companyId: other.id, memberResell: true });
    a = await signUp(t, { name: 'Anna' });
    b = await signUp(t, { name: 'Bert' }, { host: 'b.test' });
    c = await signUp(t, { name: 'Cleo' }, { host: 'c.test' });
    for (const m of [a, b]) await t.database.db.transaction((tx) => addCredits(tx, m.user.id, 50, 'demo_grant', `resell-${kind}-${m.user.id}`));
  }, 120_000);
  afterAll(() => t.close());

  const resell = (site: number, on: boolean) => t.services.settings.updateSite(site, { memberResell: on });
  const found = async (client: TestClient) => ((await client.get('/api/members.php')).body.profiles as { id: number }[]).map((p) => p.id);
  const profile = (client: TestClient, id: number) => client.get(`/api/profile.php?id=${id}`);
  const like = (client: TestClient, id: number) => client.post('/api/like.php', { profile_id: id });
  const message = (client: TestClient, id: number, text = `Hi ${++keys}`) =>
    client.post('/api/messages.php', { profile_id: id, text }, { 'idempotency-key': `resell-${kind}-${++keys}-0123456789` });
  const expectNotThere = (res: { status: number; body: { error?: { code: string } } }, what: string) => {
    expect(res.status, what).toBe(404);
    expect(res.body.error?.code, what).toBe('not_found');
  };
  const count = async () => ({ likes: await t.database.db.$count(likes), messages: await t.database.db.$count(messages) });

  it('off: members meet only the members of their own site, in search, profiles, likes and messages', async () => {
    await resell(t.siteId, false);
    await resell(siteB.id, false);
    const before = await count();
    expect(await found(a.client)).not.toContain(b.user.id);
    expect(await found(a.client)).not.toContain(c.user.id);
    expect(await found(b.client)).not.toContain(a.user.id);
    for (const [from, to, pair] of [[a, b, 'a→b'], [b, a, 'b→a'], [a, c, 'a→c']] as const) {
      expectNotThere(await profile(from.client, to.user.id), `${pair} profile`);
      expectNotThere(await like(from.client, to.user.id), `${pair} like`);
      expectNotThere(await message(from.client, to.user.id), `${pair} message`);
    }
    // Visitors of site B see site B's members only.
    const visitorOfB = t.client({ host: 'b.test' });
    expect(await found(visitorOfB)).toContain(b.user.id);
    expect(await found(visitorOfB)).not.toContain(a.user.id);
    expectNotThere(await profile(visitorOfB, a.user.id), 'visitor of B opens a');
    expect(await count()).toEqual(before);
  });

  it('one side on is not enough: a reselling site meets no site that does not resell', async () => {
    await resell(t.siteId, true);
    await resell(siteB.id, false);
    expect(await found(a.client)).not.toContain(b.user.id);
    expect(await found(b.client)).not.toContain(a.user.id);
    expectNotThere(await profile(a.client, b.user.id), 'a→b profile');
    expectNotThere(await message(b.client, a.user.id), 'b→a message');
  });

  it('on: members of the company\'s reselling sites meet, each paying their own site\'s prices; another company never', async () => {
    await resell(t.siteId, true);
    await resell(siteB.id, true);
    expect(await found(a.client)).toContain(b.user.id);
    expect(await found(b.client)).toContain(a.user.id);
    expect(await found(t.client({ host: 'b.test' }))).toEqual(expect.arrayContaining([a.user.id, b.user.id]));
    // Site C resells too, but for another company.
    expect(await found(a.client)).not.toContain(c.user.id);
    expect(await found(c.client)).not.toContain(a.user.id);

    expect((await profile(a.client, b.user.id)).status).toBe(200);
    expect((await like(a.client, b.user.id)).status).toBe(200);
    const liked = (await b.client.get('/api/likes.php')).body;
    expect(liked.liked_by.map((p: { id: number }) => p.id)).toEqual([a.user.id]);
    expect((await b.client.get('/api/user.php')).body.user.num_new_likes).toBe(1);
    // A message costs what the sender's own site asks: 5 credits on the demo site, 1 on site B.
    expect((await message(a.client, b.user.id)).body).toMatchObject({ credits: 45 });
    expect((await message(b.client, a.user.id)).body).toMatchObject({ credits: 49 });

    for (const [from, to, pair] of [[a, c, 'a→c'], [c, b, 'c→b']] as const) {
      expectNotThere(await profile(from.client, to.user.id), `${pair} profile`);
      expectNotThere(await like(from.client, to.user.id), `${pair} like`);
      expectNotThere(await message(from.client, to.user.id), `${pair} message`);
    }
  });

  it('switched off again: an earlier like waits unseen and no new message goes; the conversation stays readable', async () => {
    await resell(siteB.id, false);
    expect((await b.client.get('/api/likes.php')).body.liked_by).toEqual([]);
    expect((await b.client.get('/api/user.php')).body.user.num_new_likes).toBe(0);
    expectNotThere(await message(a.client, b.user.id), 'a→b message');
    const chats = (await a.client.get('/api/chats.php')).body.chats as { conversation: { id: number }; profile: { id: number } }[];
    const withB = chats.find((chat) => chat.profile.id === b.user.id)!;
    expect(withB).toBeDefined();
    expect((await a.client.get(`/api/messages.php?conversation=${withB.conversation.id}`)).body.messages).toHaveLength(2);
  });
});

/** Operators switch it per site with `npm run sites:set -- <domain> --member-resell on|off`. */
describe.each(DATABASE_KINDS)('npm run sites:set -- --member-resell on %s', (kind) => {
  let target: CliDatabase | undefined;
  afterAll(() => target?.drop());

  it('turns member_resell on and off; a value other than on or off changes nothing', async () => {
    target = await cliDatabase(kind, 'resell-cli');
    let database = await target.open();
    await database.migrate();
    await seedDemoSite(database.db, { photosDir: join(target.dir, 'photos'), clock: testClock(), profileCount: 0 });
    await database.close();
    const resells = async () => {
      database = await target!.open();
      try {
        return (await database.db.select({ on: sites.memberResell }).from(sites).where(eq(sites.domain, 'localhost')))[0].on;
      } finally {
        await database.close();
      }
    };
    // The refusal and the way back run in-process; switching it off runs the command as its own process, as an operator would.
    const cli = (...args: string[]) => target!.run(sitesCommand, ...args);

    expect(await resells()).toBe(true);
    expect(await cli('localhost', '--member-resell', 'no')).toMatchObject({ code: 2, out: expect.stringContaining('--member-resell <on|off') });
    expect(await resells()).toBe(true);
    expect(await target.cli('server/cli/sites-cli.ts', 'localhost', '--member-resell', 'off')).toMatchObject({ code: 0, out: expect.stringContaining('member resell off') });
    expect(await resells()).toBe(false);
    expect(await cli('localhost', '--member-resell', 'on')).toMatchObject({ code: 0, out: expect.stringContaining('member resell on') });
    expect(await resells()).toBe(true);
    // One run starts Node with tsx: on a busy machine that takes half a minute.
  }, 120_000);
});
