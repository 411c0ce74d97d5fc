import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTH_COOKIE } from '#common/constants.ts';
import { users } from '../db/schema.ts';
import type { RequestContext } from '../http/context.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';
import { SIGNUP_DONE_URL, signupAction } from './signup-form.server.ts';

/** The sign-up form's page action: the schema and use case of POST /api/signup.php, answered as a form. */
describe.each(DATABASE_KINDS)('sign-up form action on %s', (kind) => {
  let t: TestApp;
  let ctx: (over?: Partial<RequestContext>) => RequestContext;
  let n = 0;
  const email = () => `signupform${++n}.${kind}@example.org`;
  const userBy = async (address: string) => (await t.database.db.select().from(users).where(sql`lower(${users.email}) = ${address.toLowerCase()}`))[0];
  const post = (fields: Record<string, string>) => new Request('http://localhost/signup', { method: 'POST', body: new URLSearchParams(fields) });
  const account = (address: string, extra: Record<string, string> = {}) => ({
    intent: 'signup', email: address, name: 'Formfiller', password: 'correct horse battery', date_of_birth: '1990-05-06', gender: 'female', country: 'NL', ...extra,
  });
  /** React Router's data(): the body and the answer's status and headers. */
  const reply = (answer: unknown) => answer as { data: { intent?: string; ok?: true; code?: string; done?: { user: { id: number; email: string } }; result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } }; init: { status: number; headers?: Headers } };

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 4 });
    const site = await t.services.settings.siteForHost('localhost');
    const translator = await createTranslator();
    ctx = (over = {}) => ({
      services: t.services, site, actor: { kind: 'visitor', siteId: site.id }, translator, lang: 'en', userId: null, clientIp: `198.51.100.${kind === 'pglite' ? 1 : 2}`, secure: false, ...over,
    }) as unknown as RequestContext;
  });
  afterAll(() => t.close());

  it('without JavaScript: creates the member with the landing parameters, signs them in and sends them on', async () => {
    const address = email();
    const answer = await signupAction(ctx(), post(account(address, { network: 'adnet', sub1: 'x' })));
    expect(answer).toBeInstanceOf(Response);
    const res = answer as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(SIGNUP_DONE_URL);
    expect(res.headers.get('set-cookie')).toContain(`${AUTH_COOKIE}=`);
    const row = await userBy(address);
    expect([row.network, row.sub1, row.status]).toEqual(['adnet', 'x', 'not_confirmed']);
  });

  it('with JavaScript: answers the new member for the next steps, with the session cookie', async () => {
    const address = email();
    const answer = reply(await signupAction(ctx(), post(account(address, { steps: 'in-place' }))));
    expect(answer.init.status).toBe(200);
    expect(answer.data.ok).toBe(true);
    expect(answer.data.done?.user.email).toBe(address);
    expect(answer.init.headers?.get('set-cookie')).toContain(`${AUTH_COOKIE}=`);
    expect((await userBy(address)).id).toBe(answer.data.done?.user.id);
  });

  it('an under-age date of birth and a bad address stand beside their fields, keep the values but not the password, and create nothing', async () => {
    const address = email();
    const answer = reply(await signupAction(ctx(), post(account(address, { date_of_birth: '2015-01-01' }))));
    expect(answer.init.status).toBe(400);
    expect(answer.data.result.error?.date_of_birth).toEqual(['You must be at least 18 years old to sign up.']);
    expect(answer.data.result.initialValue).toMatchObject({ email: address, name: 'Formfiller' });
    expect(JSON.stringify(answer.data.result.initialValue)).not.toContain('correct horse');
    expect(await userBy(address)).toBeUndefined();

    const bad = reply(await signupAction(ctx(), post(account('not-an-address'))));
    expect(Object.keys(bad.data.result.error ?? {})).toEqual(['email']);
  });

  it('an address in use answers its code (the form offers log-in) beside the address', async () => {
    const address = email();
    await signupAction(ctx(), post(account(address)));
    const answer = reply(await signupAction(ctx(), post(account(address.toUpperCase()))));
    expect(answer.init.status).toBe(409);
    expect(answer.data.code).toBe('email_taken');
    expect(answer.data.result.error?.email?.[0]).toBeTruthy();
  });

  it('a first message longer than the site allows stands beside the message, and no account is made', async () => {
    const address = email();
    const [other] = await t.database.db.select({ id: users.id }).from(users).where(sql`${users.email} like 'member%@demo.amora.invalid'`).limit(1);
    const long = 'x'.repeat(ctx().site.messageLength + 1);
    const answer = reply(await signupAction(ctx(), post(account(address, { profile_id: String(other.id), signup_message: long }))));
    expect(answer.init.status).toBe(400);
    expect(answer.data.result.error?.signup_message?.[0]).toContain(String(ctx().site.messageLength));
    expect(await userBy(address)).toBeUndefined();
  });

  it('a site that takes sign-ups only with a traffic source refuses a form without one', async () => {
    const address = email();
    await t.services.settings.updateSite(t.siteId, { signups: 'with_trafficsource' });
    try {
      const answer = reply(await signupAction(ctx(), post(account(address))));
      expect(answer.init.status).toBe(403);
      expect(answer.data.code).toBe('signup_disabled');
      expect(await userBy(address)).toBeUndefined();
    } finally {
      await t.services.settings.updateSite(t.siteId, { signups: 'all' });
    }
  });

  it('the reactivation offer posts here too and checks the address like POST /api/reactivate.php', async () => {
    const bad = reply(await signupAction(ctx(), post({ intent: 'reactivate', email: 'nope' })));
    expect(bad.init.status).toBe(400);
    expect(bad.data.intent).toBe('reactivate');
    expect(bad.data.result.error?.email).toBeTruthy();
    const fine = reply(await signupAction(ctx(), post({ intent: 'reactivate', email: 'Somebody@Example.org' })));
    expect(fine.init.status).toBe(200);
    expect(fine.data.done).toEqual({ email: 'somebody@example.org' });
  });
});
