import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';
import type { Services } from '../use-cases.ts';

/**
 * The API and the pages are two doors to one use case: for every feature that has both an endpoint and a page (its
 * loader or its form's action), the same request through either door calls the same use case with equal input. A
 * door that decided a rule itself (a price, a currency, a default, a limit) or wired the steps again would call
 * something else, or call it with something else, and fail here. Each use case is wrapped in the test app's
 * service bag with a recorder of the input it is called with.
 *
 * Features with one door are not listed: sending a message, a gift or a photo, ordering a bundle and a repeat order
 * (their pages call the API from the browser; a sign-up's first message goes through signup.signUp, which sends it as
 * chat.send sends any message), the credits page's prices with a code (payments.purchase, no endpoint) and
 * GET /api/discountcode.php (no page).
 */

/** A use case in the service bag: `area.method`, or a use case of its own (`viewProfile`). */
type UseCaseName = 'chat.openWith' | 'chat.terms' | 'viewProfile' | 'search.find' | 'payments.catalogue' | 'signup.signUp'
  | 'directDebit.start' | 'directDebit.confirm';

interface Door { label: string; request: () => Promise<{ status: number }> | { status: number }; status: number }

describe.each(DATABASE_KINDS)('the API and the pages call the same use cases with the same input (%s)', (kind) => {
  let t: TestApp;
  let member: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  const calls: Record<string, unknown[][]> = {};

  /** Wraps the use case so that every call records a copy of its arguments (the actor and the input) first. */
  function record(name: UseCaseName) {
    const [area, method] = name.includes('.') ? name.split('.') : [null, name];
    const holder = (area ? t.services[area as keyof Services] : t.services) as unknown as Record<string, (...args: unknown[]) => unknown>;
    const original = holder[method];
    holder[method] = (...args: unknown[]) => {
      (calls[name] ??= []).push(structuredClone(args));
      return original(...args);
    };
  }

  /** The calls of the use case that one request made. */
  async function callsOf(name: UseCaseName, door: Door) {
    calls[name] = [];
    const res = await door.request();
    expect(res.status, door.label).toBe(door.status);
    return calls[name];
  }

  const cookie = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  /** A page's form, posted as a browser posts it (form-encoded, with the client's cookies). */
  const postForm = (client: TestClient | null, path: string, fields: Record<string, string>) => t.app.request(`http://localhost${path}`, {
    method: 'POST', body: new URLSearchParams(fields).toString(),
    headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded', ...(client ? { cookie: cookie(client) } : {}) },
  }, { incoming: { socket: { remoteAddress: client?.ip ?? '192.0.2.10' } } });

  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3, pages: true });
    member = await signUp(t);
    other = await signUp(t);
    for (const name of ['chat.openWith', 'chat.terms', 'viewProfile', 'search.find', 'payments.catalogue', 'signup.signUp', 'directDebit.start', 'directDebit.confirm'] as const) {
      record(name);
    }
  }, 300_000);
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  }, 120_000);

  /** Each pair: the feature, its use case, and the same request through the API and through the page. */
  const pairs = (): [string, UseCaseName, Door, Door][] => [
    ['open a conversation with a member', 'chat.openWith',
      { label: 'GET /api/messages.php?profile=', request: () => member.client.get(`/api/messages.php?profile=${other.user.id}`), status: 200 },
      { label: 'GET /members/{id}/chat', request: () => member.client.get(`/members/${other.user.id}/chat`), status: 200 }],
    ['the chat\'s gifts and prices', 'chat.terms',
      { label: 'GET /api/gifts.php', request: () => member.client.get('/api/gifts.php'), status: 200 },
      { label: 'GET /members/{id}/chat', request: () => member.client.get(`/members/${other.user.id}/chat`), status: 200 }],
    ['a member\'s profile', 'viewProfile',
      { label: 'GET /api/profile.php?id=', request: () => member.client.get(`/api/profile.php?id=${other.user.id}`), status: 200 },
      { label: 'GET /members/{id}', request: () => member.client.get(`/members/${other.user.id}`), status: 200 }],
    ['search', 'search.find',
      { label: 'GET /api/members.php', request: () => member.client.get('/api/members.php?gender=female&min_age=20&max_age=40'), status: 200 },
      { label: 'GET /members', request: () => member.client.get('/members?gender=female&min_age=20&max_age=40'), status: 200 }],
    ['the bundles, for a member', 'payments.catalogue',
      { label: 'GET /api/packages.php', request: () => member.client.get('/api/packages.php'), status: 200 },
      { label: 'GET /pricing', request: () => member.client.get('/pricing'), status: 200 }],
    ['the bundles, for a visitor', 'payments.catalogue',
      { label: 'GET /api/packages.php', request: () => t.client().get('/api/packages.php'), status: 200 },
      { label: 'GET /pricing', request: () => t.client().get('/pricing'), status: 200 }],
  ];

  it.each(pairs().map(([feature, ...rest]) => [feature, ...rest] as const))('%s: %s', async (_feature, useCase, api, page) => {
    const fromApi = await callsOf(useCase, api);
    const fromPage = await callsOf(useCase, page);
    expect(fromApi, api.label).toHaveLength(1);
    expect(fromPage, page.label).toEqual(fromApi);
  });

  it('sign-up: POST /api/signup.php and the sign-up form call signup.signUp alike', async () => {
    const account = { email: `pair.${kind}@example.org`, name: 'Paired', password: 'correct horse battery', date_of_birth: '1990-04-12', gender: 'female', country: 'NL' };
    const fromApi = await callsOf('signup.signUp', { label: 'POST /api/signup.php', request: () => t.client().post('/api/signup.php', account), status: 201 });
    // The same account again through the form: the same use case with the same input (now refused: the address is taken).
    const fromPage = await callsOf('signup.signUp', { label: 'POST /signup', request: () => postForm(null, '/signup', { intent: 'signup', ...account }), status: 409 });
    expect(fromApi).toHaveLength(1);
    expect(fromPage).toEqual(fromApi);
  });

  it('direct debit: POST /api/directdebit.php and -confirm.php and the /directdebit form call directDebit.start and confirm alike', async () => {
    const [bundle] = (await member.client.get('/api/packages.php')).body.packages as { id: number }[];
    const mandate = {
      package_id: String(bundle.id), account_holder: 'Jan Jansen', iban: 'NL91ABNA0417164300', street: 'Damrak', house_number: '1',
      zip: '1012 LG', city: 'Amsterdam', mobile: '+31612340099', mandate_consent: 'on', withdrawal_consent: 'on',
    };
    const json = { ...mandate, package_id: bundle.id, mandate_consent: true, withdrawal_consent: true };
    let request = '';
    const fromApi = await callsOf('directDebit.start', {
      label: 'POST /api/directdebit.php',
      request: async () => {
        const res = await member.client.post('/api/directdebit.php', json);
        request = res.body.request;
        return res;
      },
      status: 201,
    });
    const fromPage = await callsOf('directDebit.start', { label: 'POST /directdebit', request: () => postForm(member.client, '/directdebit', { intent: 'start', ...mandate }), status: 302 });
    expect(fromApi).toHaveLength(1);
    expect(fromPage).toEqual(fromApi);

    // A wrong code through either door: the same confirmation, refused alike.
    const code = { request, code: '000000' };
    const confirmApi = await callsOf('directDebit.confirm', { label: 'POST /api/directdebit-confirm.php', request: () => member.client.post('/api/directdebit-confirm.php', code), status: 422 });
    const confirmPage = await callsOf('directDebit.confirm', { label: 'POST /directdebit', request: () => postForm(member.client, '/directdebit', { intent: 'confirm', ...code }), status: 422 });
    expect(confirmApi).toHaveLength(1);
    expect(confirmPage).toEqual(confirmApi);
  });
});
