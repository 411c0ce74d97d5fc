import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contracts, staffAuth } from '#common/contracts/contract.ts';
import { idParam } from '#common/contracts/shapes.ts';
import type { Actor, StaffActor } from '../actor.ts';
import { isAppError } from '../infra/errors.ts';
import type { AppEnv, RequestContext } from './context.ts';
import { ApiRoutes } from './endpoint.ts';

const ok = { description: 'Done.', schema: z.unknown() };
const logIn = z.object({ email: z.string().min(1, 'errors.login_failed') });
const subscribe = z.object({ subscription: z.literal('denied', { error: 'errors.push_subscription_invalid' }) });

const demo = contracts({
  read: { method: 'get', path: '/api/demo.php', summary: 'Read', query: z.object({ id: idParam }), responses: { 200: ok } },
  write: {
    method: 'post', path: '/api/demo.php', auth: 'member', summary: 'Write',
    body: z.object({ name: z.string().min(2, 'errors.name_too_short') }), responses: { 200: ok },
  },
  upload: { method: 'post', path: '/api/upload.php', auth: 'member', summary: 'Upload', form: z.object({ photo: z.file({ error: 'errors.photo_missing' }) }), responses: { 201: ok } },
  either: {
    method: 'post', path: '/api/either.php', summary: 'Log in, or with ?push=1 subscribe',
    query: z.object({ push: z.literal('1').optional().catch(undefined) }), body: z.union([logIn, subscribe]), responses: { 200: ok },
  },
  staff: { method: 'get', path: '/api/staff.php', auth: staffAuth('finance'), summary: 'Finance staff', responses: { 200: ok } },
});

/**
 * The API's routes behind a stand-in for app.ts: a request context with the actor (and the staff member of the
 * request, if any), errors as the API answers them.
 */
function serve(routes: Hono<AppEnv>, actor: Actor, staff: StaffActor | null = null) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('ctx', { actor, staff: async () => staff } as unknown as RequestContext);
    await next();
  });
  app.route('/api', routes);
  app.onError((error, c) => (isAppError(error)
    ? c.json({ error: { code: error.code, ...(Object.keys(error.details).length ? { details: error.details } : {}) } }, error.status)
    : c.json({ error: { code: 'server_error' } }, 500)));
  return app;
}

const visitor: Actor = { kind: 'visitor', siteId: 1 };
const member: Actor = { kind: 'member', siteId: 1, userId: 7 };
const json = (body: string, headers: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('an endpoint declared from its contract', () => {
  const steps: string[] = [];
  const counted: MiddlewareHandler<AppEnv> = async (_c, next) => {
    steps.push('before');
    await next();
  };
  const routes = new ApiRoutes()
    .endpoint(demo.read, (c, { query }) => c.json({ id: query.id, type: typeof query.id }))
    .endpoint(demo.write, { before: [counted] }, (c, { body }) => c.json({ name: body.name }))
    .endpoint(demo.upload, (c, { form }) => c.json({ size: form.photo.size }, 201))
    .endpoint(demo.staff, (c, { staff }) => c.json({ staff }));

  it('is registered at the contract\'s method and path', () => {
    expect(serve(routes, visitor).routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining([
      'GET /api/demo.php', 'POST /api/demo.php', 'POST /api/upload.php', 'GET /api/staff.php',
    ]));
  });

  it('gives the handler the query parsed by the contract, and answers a bad one 400 with the field', async () => {
    const app = serve(routes, visitor);
    expect(await (await app.request('/api/demo.php?id=12')).json()).toEqual({ id: 12, type: 'number' });
    const bad = await app.request('/api/demo.php?id=1e2');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: { code: 'invalid_input', details: { id: 'errors.invalid_input' } } });
  });

  it('refuses a visitor a member endpoint before anything runs or is read', async () => {
    steps.length = 0;
    const res = await serve(routes, visitor).request('/api/demo.php', json('{not json'));
    expect([res.status, await res.json()]).toEqual([403, { error: { code: 'authentication_required' } }]);
    expect(steps).toEqual([]);
  });

  it('runs its `before` steps, then parses the body by the contract', async () => {
    const app = serve(routes, member);
    steps.length = 0;
    const short = await app.request('/api/demo.php', json('{"name":"A"}'));
    expect([short.status, await short.json()]).toEqual([400, { error: { code: 'name_too_short', details: { name: 'errors.name_too_short' } } }]);
    expect(steps).toEqual(['before']);
    expect((await app.request('/api/demo.php', json('[1]'))).status).toBe(400);
    expect((await app.request('/api/demo.php', json('{"name":"Ann"}', { 'content-type': 'text/plain' }))).status).toBe(415);
    expect(await (await app.request('/api/demo.php', json('{"name":"Ann"}'))).json()).toEqual({ name: 'Ann' });
  });

  it('reads a multipart form; a body that is not one has no fields', async () => {
    const app = serve(routes, member);
    const form = new FormData();
    form.set('photo', new Blob([new Uint8Array(3)]), 'a.jpg');
    const sent = await app.request('/api/upload.php', { method: 'POST', body: form });
    expect([sent.status, await sent.json()]).toEqual([201, { size: 3 }]);
    const missing = await app.request('/api/upload.php', json('{"photo":1}'));
    expect([missing.status, await missing.json()]).toEqual([400, { error: { code: 'photo_missing', details: { photo: 'errors.photo_missing' } } }]);
  });

  it('lets only staff with the role (or admins) in, and names them to the handler', async () => {
    const as = (roles: StaffActor['roles']): StaffActor => ({ kind: 'staff', staffId: 3, roles, siteIds: [1], companyIds: null });
    const call = async (staff: StaffActor | null) => {
      const res = await serve(routes, member, staff).request('/api/staff.php');
      return [res.status, await res.json()];
    };
    expect(await call(null)).toEqual([401, { error: { code: 'staff_authentication_required' } }]);
    expect(await call(as(['moderator', 'support']))).toEqual([403, { error: { code: 'forbidden' } }]);
    expect(await call(as(['finance']))).toEqual([200, { staff: as(['finance']) }]);
    expect(await call(as(['admin']))).toEqual([200, { staff: as(['admin']) }]);
  });
});

describe('two operations on one path, told apart by the query', () => {
  const routes = new ApiRoutes()
    .endpoint(demo.either, { when: (query) => query.push === '1', auth: 'member', body: subscribe }, (c, { body }) => c.json({ subscribed: body.subscription }))
    .endpoint(demo.either, { body: logIn }, (c, { body }) => c.json({ email: body.email }));

  it('serves each request by the declaration its query picks, with that one\'s auth and body', async () => {
    expect(await (await serve(routes, member).request('/api/either.php?push=1', json('{"subscription":"denied"}'))).json()).toEqual({ subscribed: 'denied' });
    expect(await (await serve(routes, visitor).request('/api/either.php', json('{"email":"a@b.c"}'))).json()).toEqual({ email: 'a@b.c' });
    // Anything but push=1 is the other operation.
    expect(await (await serve(routes, visitor).request('/api/either.php?push=2', json('{"email":"a@b.c"}'))).json()).toEqual({ email: 'a@b.c' });
    const refused = await serve(routes, visitor).request('/api/either.php?push=1', json('{"email":"a@b.c"}'));
    expect([refused.status, await refused.json()]).toEqual([403, { error: { code: 'authentication_required' } }]);
    const wrong = await serve(routes, member).request('/api/either.php?push=1', json('{"email":"a@b.c"}'));
    expect([wrong.status, await wrong.json()]).toEqual([400, { error: { code: 'push_subscription_invalid', details: { subscription: 'errors.push_subscription_invalid' } } }]);
  });

  it('takes as a variant\'s body only one of the contract\'s alternatives', () => {
    expect(() => new ApiRoutes().endpoint(demo.either, { body: z.object({ other: z.string() }) }, (c) => c.json({}))).toThrow(/alternatives/);
  });
});
