import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTRACTS } from '#common/contracts/index.ts';
import { isStaffAuth, type StaffAuth } from '#common/contracts/contract.ts';
import { STAFF_ROLES } from '#common/staff.ts';
import { createStaff } from '../../tests/helpers/staff.ts';
import { checkContracts, ContractViolation, contractProblem } from '../../tests/helpers/contract-check.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';

type Doc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Every $ref in a document. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, found));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') found.push(v);
      else refs(v, found);
    }
  }
  return found;
}

/** A schema of the document as a zod schema again, its component references made local. */
function fromDocument(doc: Doc, schema: unknown) {
  const local = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll('#/components/schemas/', '#/$defs/'));
  return z.fromJSONSchema({ ...local(schema), $defs: local(doc.components.schemas) });
}

describe('API contracts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { profiles: 3 });
  });
  afterAll(() => t.close());

  it('has a contract for every route of the JSON API, and a route for every contract', () => {
    const routes = new Set(t.app.routes
      .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path}`));
    const contracted = new Set(CONTRACTS.map((c) => `${c.method.toUpperCase()} ${c.path}`));
    expect(routes.size).toBeGreaterThan(40);
    expect([...routes].filter((r) => !contracted.has(r)), 'routes without a contract').toEqual([]);
    expect([...contracted].filter((c) => !routes.has(c)), 'contracts without a route').toEqual([]);
    expect(contracted.size, 'one contract per method and path').toBe(CONTRACTS.length);
  });

  it('refuses member-only endpoints to visitors and staff endpoints to members and to staff without the role, as their contracts say', async () => {
    const visitor = t.client();
    const member = t.client();
    await member.login();
    const call = (client: typeof visitor, c: (typeof CONTRACTS)[number]) => client.request(c.method.toUpperCase(), `${c.path}?id=ord_missing`, c.method === 'get' ? undefined : {});
    const memberOnly = CONTRACTS.filter((c) => c.auth === 'member');
    expect(memberOnly.length).toBeGreaterThan(25);
    for (const contract of memberOnly) {
      const res = await call(visitor, contract);
      expect([res.status, res.body.error?.code], `${contract.method} ${contract.path}`).toEqual([403, 'authentication_required']);
    }
    const staffOnly = CONTRACTS.filter((c) => isStaffAuth(c.auth));
    expect(staffOnly.length).toBeGreaterThan(2);
    for (const contract of staffOnly) {
      const res = await call(member, contract);
      expect([res.status, res.body.error?.code], `${contract.method} ${contract.path}`).toEqual([401, 'staff_authentication_required']);
      const role = (contract.auth as StaffAuth).staff;
      const other = await createStaff(t, { roles: STAFF_ROLES.filter((r) => r !== role && r !== 'admin') });
      const refused = await call(t.client({ headers: other.bearer }), contract);
      expect([refused.status, refused.body.error?.code], `${contract.method} ${contract.path}`).toEqual([403, 'forbidden']);
    }
  });

  it('finds an answer outside its contract', async () => {
    const user = (await t.client().login()) as Record<string, unknown>;
    expect(await contractProblem('GET', '/api/user.php', json(200, { user }))).toBeNull();
    // A field of the wrong type, a field the contract does not name, a missing field.
    expect(await contractProblem('GET', '/api/user.php', json(200, { user: { ...user, credits: '5' } }))).toMatch(/credits/);
    expect(await contractProblem('GET', '/api/user.php', json(200, { user: { ...user, password_hash: 'x' } }))).toMatch(/password_hash/);
    const { email: _email, ...withoutEmail } = user;
    expect(await contractProblem('GET', '/api/user.php', json(200, { user: withoutEmail }))).toMatch(/email/);
    // A status the contract does not name, an endpoint without a contract, a refusal of another shape.
    expect(await contractProblem('GET', '/api/user.php', json(201, { user }))).toMatch(/does not name/);
    expect(await contractProblem('GET', '/api/unknown.php', json(200, {}))).toMatch(/no contract/);
    expect(await contractProblem('GET', '/api/user.php', json(403, { message: 'no' }))).toMatch(/Error schema/);
    expect(await contractProblem('GET', '/api/user.php', json(403, { error: { code: 'forbidden', message: 'No.' } }))).toBeNull();
    // A non-JSON answer where the contract names JSON; an empty 204 where the contract names one.
    expect(await contractProblem('GET', '/api/user.php', new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } }))).toMatch(/text\/html/);
    expect(await contractProblem('POST', '/api/page-hidden.php', new Response(null, { status: 204 }))).toBeNull();
  });

  it('fails a request whose answer is outside its contract', async () => {
    const app = { fetch: async (_request: Request) => json(200, { user: null }) };
    checkContracts(app);
    await expect(app.fetch(new Request('http://localhost/api/user.php'))).rejects.toThrow(ContractViolation);
    // Pages and photo files are not part of the JSON API.
    await expect(app.fetch(new Request('http://localhost/members'))).resolves.toBeInstanceOf(Response);
  });

  it('checks compressed answers too', async () => {
    const res = await t.app.request('http://localhost/api/settings.php', { headers: { host: 'localhost', 'accept-encoding': 'br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await contractProblem('GET', '/api/settings.php', res.clone())).toBeNull();
    // The same compressed bytes as another endpoint's answer are outside that one's contract.
    expect(await contractProblem('GET', '/api/companyinfo.php', new Response(res.body, { headers: res.headers }))).toMatch(/settings/);
  });

  it('serves the OpenAPI 3.1 description of every endpoint at /api/openapi.json', async () => {
    const res = await t.client().get<Doc>('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    for (const contract of CONTRACTS) {
      const op = doc.paths[contract.path]?.[contract.method];
      expect(op, `${contract.method} ${contract.path}`).toBeDefined();
      expect(Object.keys(op.responses).sort()).toEqual([...Object.keys(contract.responses), 'default'].sort());
      for (const r of Object.values(op.responses)) expect(r.description).toBeTruthy();
    }
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(operations.length).toBe(CONTRACTS.length);
    expect(new Set(operations.map((o) => o.operationId)).size, 'unique operationIds').toBe(CONTRACTS.length);
    // Every reference points at a component; no generator leftovers.
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(20);
    for (const ref of all) expect(doc.components.schemas, ref).toHaveProperty(ref.replace('#/components/schemas/', ''));
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"$schema"');
    expect(text).not.toContain('#/$defs/');
  });

  it('describes in the document what the endpoints really answer', async () => {
    const doc = (await t.client().get<Doc>('/api/openapi.json')).body;
    const client = t.client();
    await client.login();
    const schemaOf = (path: string, method = 'get', status = '200') => fromDocument(doc, doc.paths[path][method].responses[status].content!['application/json'].schema);
    for (const path of ['/api/user.php', '/api/settings.php', '/api/members.php', '/api/chats.php', '/api/likes.php', '/api/notifications.php', '/api/packages.php']) {
      const answer = await client.get(path);
      expect(answer.status, path).toBe(200);
      const parsed = schemaOf(path).safeParse(answer.body);
      expect(parsed.success, `${path}: ${parsed.success ? '' : z.prettifyError(parsed.error)}`).toBe(true);
    }
    // And refuses what they do not.
    const user = (await client.get('/api/user.php')).body;
    expect(schemaOf('/api/user.php').safeParse({ user: { ...user.user, credits: 'many' } }).success).toBe(false);
    expect(schemaOf('/api/user.php').safeParse({ user: { ...user.user, extra: 1 } }).success).toBe(false);
  });
});
