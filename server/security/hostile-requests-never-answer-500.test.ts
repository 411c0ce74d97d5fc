import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_COOKIE, TRACKING_COOKIE } from '#common/constants.ts';
import { LOCALE_COOKIE } from '#common/languages.ts';
import { pageBuild, type PageRoute } from '../../tests/helpers/page-build.ts';
import { createStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, signUp, type DatabaseKind, type TestApp } from '../../tests/helpers/test-app.ts';

/**
 * Generated hostile requests against every /api route the app has (read from the app itself, so a
 * new endpoint is fuzzed without touching this file) and every page that takes a form (read from
 * app/routes.ts, so a new action is fuzzed too), as a visitor and as a signed-in member: no answer
 * may be a 5xx, every 4xx is the JSON error shape or a page, and no redirect leaves the site.
 */

/** Whether a body is the API's error shape: `{ error: { code, message } }` with a message to show. */
function isErrorShape(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } } | null;
    return typeof parsed?.error?.code === 'string' && typeof parsed.error.message === 'string' && parsed.error.message !== '';
  } catch {
    return false;
  }
}

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/** Cases per route and identity; PostgreSQL gets a smaller pass. */
const RUNS: Record<DatabaseKind, number> = { pglite: 50, postgres: 8 };

const STAFF_TOKEN = 'amora_st_token-for-fuzzing-0123456789';
const MAIL_WEBHOOK_SECRET = 'mail-webhook-secret-for-fuzzing-01';

/** Field names the endpoints read from bodies and query strings. */
const FIELDS = [
  'id', 'profile_id', 'conversation', 'profile', 'after', 'package_id', 'paymentmethod', 'text', 'name', 'email', 'password',
  'password_confirm', 'old_password', 'token', 'about', 'region', 'country', 'countryregion', 'gender', 'sexuality', 'language',
  'subscription', 'invisible', 'reason', 'main', 'private', 'action', 'outcome', 'cursor', 'similar', 'min_age', 'max_age', 'lat',
  'lon', 'push', 'provider', 'file', 'u', 'c', 's', 'date_of_birth', 'interests', 'hair_color', 'eye_color', 'body_type', 'tattoos',
  'relationship_status', 'signup_reason', 'signup_message', 'type', 'detail', 'network', 'ref', 'sub1', 'sub2', 'sub3',
] as const;

const BIG = 'x'.repeat(100 * 1024);
/** Hostile strings by kind; each kind is drawn equally often, so the rare ones are not drowned by the many. */
const STRING_KINDS: string[][] = [
  // NUL bytes (PostgreSQL cannot store them)
  ['\u0000', 'Anna\u0000', '\u0000Anna', 'demo\u0000@example.com', 'tr_\u0000', 'ord_\u0000', 'x\u0000'.repeat(3), 'Utrecht\u0000'],
  // other controls, bidi overrides and isolates, hidden characters
  ['\u0007\u001B[31m', '\u0085\u009F', '\u202Eexe.gnp', 'An\u2066na\u2069', '\u{E0041}\u{E0042}', '\u3164\u3164', 'a\nb', 'a\tb', '\u2028'],
  // zero-width only, combining, lone surrogates
  ['\u200B\u200C\u200D\u2060\uFEFF', '\u200B', 'é'.normalize('NFD'), '\u0301\u0301', '\uD800', 'x\uDC00y', '\uDBFF\uDBFF'],
  // ids and numbers written as text
  ['1e2', ' 7 ', '07', '+7', '0x10', '-1', '0', '2147483648', '9007199254740993', '1e308', 'NaN', 'Infinity', '1.5', ''],
  // long
  ['ñ'.repeat(30_000), 'a'.repeat(300), '𝒜'.repeat(5000), BIG],
  // well-formed values the endpoints know, and classic injection strings
  ['female', 'NL', 'Utrecht', 'UT', 'ideal', 'approve', 'paid', 'bounce', 'de', '1', 'demo@example.com', 'a@b.c', 'amora-demo', '1990-04-12',
    '2026-13-45', '9999-12-31', 'MjAyNi0wMi0zMFQwMDowMDowMFp8NQ', ' ', '<script>alert(1)</script>', "' or 1=1 --", '${7*7}', '%00', '../../etc/passwd'],
];
const hostileNumbers = [0, -1, 1, 2, 3, 7, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, 1.5, Number.MIN_VALUE, 1e2];
const hostileString = fc.oneof(...STRING_KINDS.map((kind) => fc.constantFrom(...kind)));

const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(...hostileNumbers) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(true, false, null, [1], [], {}, { id: 2 ** 31 }, { id: '1' }, ['a', 'b'], ['\u0000'], { endpoint: 'https://127.0.0.1/x', keys: {} }, { new_message: '\u0000' }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Percent-encoding; a lone surrogate has no UTF-8 form, so it goes out as the bytes a careless client would send. */
const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.oneof(...STRING_KINDS.map((kind) => fc.constantFrom(...kind.filter((v) => v.length < 1000)))).map(encode) },
  { weight: 2, arbitrary: fc.constantFrom(...hostileNumbers).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%ZZ', '%C0%80', '%ED%A0%80', '%FF', '%00%00', 'a%2', '%E2%80%AE', '+', '&&', '==') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encode) },
);

const query = fc.array(fc.tuple(fc.constantFrom<string>(...FIELDS), queryValue), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

const body: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom<string>(...FIELDS), jsonValue, { maxKeys: 6 }).map((o) => JSON.stringify(o)) },
  { weight: 2, arbitrary: fc.constantFrom('{', '{"a":', 'null', '[]', '[1]', '42', '"text"', 'true', '', ' ', '{"id":1}{"id":2}', '\u0000', '{"__proto__":{"x":1}}', '1e999', `{"text":"${'a'.repeat(70 * 1024)}"}`) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Mostly a well-formed envelope, so that the hostile fields reach the handlers; sometimes a broken one. */
const mostly = <T,>(usual: T, odd: T[]) => fc.oneof({ weight: 5, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });

const contentType = mostly<string | undefined>('application/json', [
  'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain; application/json', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'multipart/form-data', 'application/jsonp', '', undefined,
]);

const headers = fc.record({
  origin: mostly<string | undefined>(undefined, ['http://localhost', 'evil', 'null', 'http://evil.example', 'javascript:alert(1)', 'http://[::1', 'x'.repeat(8000), 'http://localhost:99999', 'file://']),
  'sec-fetch-site': mostly<string | undefined>(undefined, ['same-origin', 'same-site', 'cross-site', 'none', 'garbage']),
  'idempotency-key': fc.constantFrom(undefined, 'fuzz-key-0001', 'fuzz-key-0002', 'short', 'ünïcode-key-0001', 'x'.repeat(5000)),
  'accept-language': fc.constantFrom(undefined, 'de', 'xx-YY', '*;q=abc', 'a'.repeat(5000), ',,,;;;', 'fi;q=2, sv;q=-1'),
  authorization: mostly<string | undefined>(`Bearer ${STAFF_TOKEN}`, [undefined, 'Bearer wrong', 'Bearer amora_st_wrong', 'Basic x']),
  'x-mail-webhook-secret': mostly<string | undefined>(MAIL_WEBHOOK_SECRET, [undefined, 'wrong']),
  'x-forwarded-for': fc.constantFrom(undefined, '1.2.3.4', 'not an ip', '::1, 10.0.0.1', 'x'.repeat(1000)),
  'cf-ipcountry': fc.constantFrom(undefined, 'NL', 'XX', 'nl', 'ZZZ'),
  'x-request-id': fc.constantFrom(undefined, 'r'.repeat(500), '\u00e9'),
  extraCookie: fc.constantFrom(
    undefined, undefined, `${LOCALE_COOKIE}=xx`, `${LOCALE_COOKIE}=de`, `${TRACKING_COOKIE}=%%%`, `${TRACKING_COOKIE}=${Buffer.from('{"network":[1]}').toString('base64url')}`,
    `${TRACKING_COOKIE}=${Buffer.from('{"network":"n\\u0000","ref":"\\u202e"}').toString('base64url')}`, `${TRACKING_COOKIE}=${Buffer.from('null').toString('base64url')}`, `${AUTH_COOKIE}=forged`,
  ),
});

/** A valid request per endpoint: the fuzzer also breaks one field of it at a time, to get past the first check. */
const EXAMPLE_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/user.php': { email: 'demo@example.com', password: 'amora-demo' },
  'PUT /api/user.php': { language: 'de' },
  'POST /api/signup.php': {
    email: 'fuzz@example.org', name: 'Fuzzy', password: 'correct horse battery', date_of_birth: '1990-04-12', gender: 'female', country: 'NL',
    profile_id: 1, signup_message: 'Hello', network: 'partner', ref: 'r1', sub1: 's1',
  },
  'PUT /api/signup-profile.php': { sexuality: 'bi', country: 'NL', region: 'UT', about: 'Hello' },
  'PUT /api/profile.php': {
    name: 'Marieke', gender: 'female', sexuality: 'bi', hair_color: 'red', eye_color: 'green', body_type: 'slim', relationship_status: 'single',
    tattoos: 'some', signup_reason: 'flirt', interests: ['music'], about: 'Walks.', country: 'NL', region: 'Utrecht',
  },
  'POST /api/like.php': { profile_id: 1 },
  'DELETE /api/like.php': { profile_id: 1 },
  'POST /api/block.php': { profile_id: 2 },
  'DELETE /api/block.php': { profile_id: 2 },
  'DELETE /api/chat.php': { conversation: 1 },
  'POST /api/messages.php': { profile_id: 1, text: 'Hello' },
  'POST /api/order.php': { package_id: 1, paymentmethod: 'ideal', withdrawal_consent: true },
  'POST /api/payment-webhook.php': { id: 'tr_fuzz' },
  'POST /api/test-checkout.php': { id: 'tr_fuzz', outcome: 'paid' },
  'POST /api/password-reset.php': { email: 'demo@example.com' },
  'PUT /api/password-reset.php': { token: 'token', password: 'a long new password', password_confirm: 'a long new password' },
  'PUT /api/password.php': { old_password: 'wrong', password: 'a long new password', password_confirm: 'a long new password' },
  'POST /api/mail-change.php': { email: 'new@example.org', password: 'wrong' },
  'DELETE /api/user.php': { password: 'wrong', reason: 'other' },
  'POST /api/reactivate.php': { email: 'demo@example.com' },
  'PUT /api/notifications.php': { email: { new_message: false }, invisible: true },
  'DELETE /api/notifications-disabled.php': { reason: 'mailbox_full' },
  'POST /api/mail-events.php': { email: 'demo@example.com', type: 'bounce', detail: 'full' },
  'PUT /api/photos.php': { id: 1, main: true },
  'DELETE /api/photos.php': { id: 1 },
  'POST /api/moderation.php': { id: 1, action: 'approve' },
  'POST /api/swipe-game.php': { profile_id: 1, action: 'like' },
  'PUT /api/match-finder.php': { gender: 'female', min_age: 20, max_age: 40, max_distance_km: 50 },
  'POST /api/order-cancel.php': { id: 'ord_fuzz' },
  'PUT /api/spend-cap.php': { period: 'day', credits: 50 },
};
const EXAMPLE_QUERIES: Record<string, Record<string, string>> = {
  'GET /api/profile.php': { id: '1' },
  'GET /api/messages.php': { profile: '1', after: '0' },
  'GET /api/members.php': { country: 'NL', countryregion: 'Utrecht', gender: 'female', min_age: '20', max_age: '40' },
  'GET /api/geocode.php': { lat: '52.09', lon: '5.12' },
  'GET /api/order.php': { id: '1' },
  'GET /api/invoice.php': { id: 'ord_fuzz' },
  'GET /api/orders.php': { page: '1' },
  'GET /api/credit-ledger.php': { page: '2' },
  'GET /api/regions.php': { country: 'NL' },
  'GET /api/settings.php': { country: 'NL' },
  'GET /api/unsubscribe.php': { u: '1', c: 'new_message', s: 'sig' },
  'POST /api/unsubscribe.php': { u: '1', c: 'new_message', s: 'sig' },
  'GET /api/activate.php': { token: 'token' },
  'GET /api/reactivate.php': { token: 'token' },
  'GET /api/moderation.php': { file: 'x.webp' },
  'POST /api/payment-webhook.php': { provider: 'test' },
  // The push subscription shares the log-in's path.
  'POST /api/user.php': { push: '1' },
};

function requestFor(route: Route) {
  const key = `${route.method} ${route.path}`;
  const exampleBody = EXAMPLE_BODIES[key] ?? {};
  const exampleQuery = EXAMPLE_QUERIES[key] ?? {};
  const field = (known: string[]) => (known.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.constantFrom<string>(...FIELDS) })
    : fc.constantFrom<string>(...FIELDS));
  const mutatedBody = fc.tuple(field(Object.keys(exampleBody)), jsonValue)
    .map(([field, value]) => JSON.stringify({ ...exampleBody, [field]: value }));
  const mutatedQuery = fc.tuple(field(Object.keys(exampleQuery)), queryValue)
    .map(([field, value]) => Object.entries({ ...exampleQuery, [field]: value }).map(([k, v]) => `${k}=${k === field ? v : encode(v)}`).join('&'));
  return fc.record({
    query: fc.oneof(query, mutatedQuery),
    body: fc.oneof({ weight: 2, arbitrary: body }, { weight: 3, arbitrary: mutatedBody }),
    contentType,
    headers,
    host: mostly('localhost', ['LOCALHOST', 'evil.example', 'a'.repeat(300), 'localhost:3000']),
  });
}

interface Route { method: string; path: string }

function apiRoutes(t: TestApp): Route[] {
  const seen = new Map<string, Route>();
  for (const r of t.app.routes) {
    if (!r.path.startsWith('/api/') || r.path.includes('*') || r.path.includes(':') || r.method === 'ALL') continue;
    seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path });
  }
  return [...seen.values()];
}

/** Pages for people, not for API clients: they answer HTML (or redirect) by design. */
const HTML_ENDPOINTS = new Set(['/api/unsubscribe.php']);

async function run(t: TestApp, kind: DatabaseKind) {
  const { user } = await signUp(t);
  let token = await t.services.accounts.createSession(user.id, t.siteId, 'fuzz');
  const routes = apiRoutes(t);
  // Every area's endpoints are found (a broken route listing would make this test pass vacuously).
  expect(routes.length).toBeGreaterThan(35);
  let cases = 0;
  let ip = 0;
  const failures: string[] = [];

  for (const route of routes) {
    for (const signedIn of [false, true]) {
      const known = failures.length;
      await fc.assert(
        fc.asyncProperty(requestFor(route), async (r) => {
          cases++;
          const cookies = [signedIn ? `${AUTH_COOKIE}=${token}` : '', r.headers.extraCookie ?? ''].filter(Boolean).join('; ');
          const h: Record<string, string> = { host: r.host };
          for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && k !== 'extraCookie') h[k] = v;
          if (cookies) h.cookie = cookies;
          const hasBody = route.method !== 'GET' && route.method !== 'HEAD' && r.body !== undefined;
          // A fresh address each time, so that a sign-up gets past "e-mail taken" to what it stores.
          const sentBody = r.body?.replace('fuzz@example.org', `fuzz${cases}@example.org`);
          if (hasBody && r.contentType !== undefined) h['content-type'] = r.contentType;
          const url = `http://${r.host}${route.path}${r.query ? `?${r.query}` : ''}`;
          ip = (ip + 1) % 60000;
          let res: Response;
          try {
            res = await t.app.request(url, { method: route.method, headers: h, body: hasBody ? sentBody : undefined }, {
              incoming: { socket: { remoteAddress: `10.${(ip >> 8) & 255}.${ip & 255}.7` } },
            });
          } catch (error) {
            failures.push(`${route.method} ${route.path} threw ${(error as Error).stack?.slice(0, 600)}`);
            return false;
          }
          const text = await res.text();
          const cut = (v: unknown) => JSON.stringify(v)?.slice(0, 120);
          const sent = `query ${cut(r.query)}, body ${cut(r.body)}, type ${cut(r.contentType)}, host ${cut(r.host)}, headers ${cut(Object.fromEntries(Object.entries(r.headers).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v).slice(0, 40)])))}`;
          const label = `${route.method} ${route.path} (${signedIn ? 'member' : 'visitor'}) -> ${res.status} ${text.slice(0, 160)} <- ${sent}`;
          if (res.status >= 500) {
            failures.push(label);
            return false;
          }
          if (res.status >= 400 && !HTML_ENDPOINTS.has(route.path)) {
            if (!isErrorShape(text)) {
              failures.push(`no JSON error shape: ${label}`);
              return false;
            }
          }
          // Log-out, deletion or a password change may end the member's session: start a new one.
          if (signedIn && !(await t.services.accounts.sessionUserId(token, t.siteId))) token = await t.services.accounts.createSession(user.id, t.siteId, 'fuzz');
          return true;
        }),
        { numRuns: RUNS[kind], seed: SEED + routes.indexOf(route) * 2 + Number(signedIn), endOnFailure: true },
      ).catch((error: Error) => {
        // The failing case is already in `failures`; anything else (a thrown error) is reported here.
        if (failures.length === known) failures.push(`${route.method} ${route.path}: ${error.message.slice(0, 1500)}`);
      });
    }
  }
  return { cases, failures, routes: routes.length };
}

// ---- Page actions -------------------------------------------------------------------------------

/** Cases per page action and identity (each renders a page); PostgreSQL gets a smaller pass. */
const PAGE_RUNS: Record<DatabaseKind, number> = { pglite: 12, postgres: 4 };

/** Where a visitor is sent on to (`?redirect=`, `?return=`, the entry warning's `return` field): other sites, encodings, controls. */
const RETURN_TARGETS = [
  '/members', '/\u0100', '/\u00ff', '/членове?x=ü#é', '/%C4%80', '/\u{1F600}', '//evil.example', '///evil.example', '\\\\evil.example', '/\\evil.example',
  '/..//evil.example', '/.//evil.example', '/%2e%2e//evil.example', 'https://evil.example/', 'javascript:alert(1)', '/\u0000x', '/a\r\nSet-Cookie: x=1',
  '/\t/evil.example', '/\u2028', '/\u202Eexe', '/\uD800', '%ZZ', '/' + 'ñ'.repeat(3000), '',
];

const PAGE_FIELDS = [
  ...FIELDS, 'intent', 'return', 'redirect', 'steps', 'kind', 'content', 'explanation', 'bona_fide', 'account_holder', 'iban', 'street',
  'house_number', 'zip', 'city', 'mobile', 'mandate_consent', 'withdrawal_consent', 'code', 'request', 'word', 'word_filter', 'remove',
  'email.new_message', 'read_receipts', 'outcome',
  // Names no form of the site writes: a list index Conform would fill up to, prototype keys, deep paths, nothing.
  'interests[9999999]', 'a[99999999]', '__proto__', 'constructor.prototype.x', 'a.b.c.d.e.f', '', 'ñ',
] as const;

const INTENTS = ['signup', 'reactivate', 'settings', 'word-filter', 'mail-change', 'password-change', 'start', 'confirm', '', 'x'.repeat(300), '\u0000'];

const SIGNUP_FORM = {
  intent: 'signup', email: 'fuzz@example.org', name: 'Fuzzy', password: 'correct horse battery', date_of_birth: '1990-04-12', gender: 'female', country: 'NL',
};
/** A valid form per page action (route id); an action not named here is fuzzed with the generic fields alone. */
const EXAMPLE_FORMS: Record<string, Record<string, string>> = {
  login: { email: 'demo@example.com', password: 'amora-demo' },
  signup: SIGNUP_FORM,
  'signup-matches': SIGNUP_FORM,
  'members-id-signup': { ...SIGNUP_FORM, signup_message: 'Hello' },
  complaints: { kind: 'profile', content: '1', reason: 'harassment', explanation: 'Rude.', name: 'Fuzzy', email: 'a@example.org', bona_fide: 'on' },
  'reset-password': { email: 'demo@example.com' },
  'reset-password-do': { token: 'token', password: 'a long new password', password_confirm: 'a long new password' },
  profile: { name: 'Marieke', gender: 'female', country: 'NL', region: '', about: 'Walks.' },
  notifications: { intent: 'settings', 'email.new_message': 'on', invisible: 'on' },
  directdebit: {
    intent: 'start', package_id: '1', account_holder: 'Jan Jansen', iban: 'NL91ABNA0417164300', street: 'Damrak', house_number: '1a', zip: '1012 LG',
    city: 'Amsterdam', mobile: '+31612345678', mandate_consent: 'on', withdrawal_consent: 'on',
  },
  'entry-warning': { return: '/members' },
  'test-checkout': { id: 'tr_fuzz', outcome: 'paid' },
};

const formValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...RETURN_TARGETS) },
  { weight: 1, arbitrary: fc.constantFrom(...INTENTS) },
  { weight: 1, arbitrary: fc.constantFrom(...hostileNumbers).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('on', 'true', 'false', '1', 'x'.repeat(60 * 1024)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

/** How a form travels: as browsers send it, as JSON, or as a broken or mislabelled body. */
type Encoding = 'urlencoded' | 'multipart' | 'json' | 'raw';
type Breakage = 'none' | 'wrong-boundary' | 'no-boundary' | 'truncated' | 'no-end' | 'wrong-type';

const RAW_BODIES = ['%', '%ZZ=1', 'a=%C0%80&b=%FF', '=&=&&', '\u0000', 'email=\u0000', '{"email":"demo@example.com"}', '', '--x\r\n', 'a'.repeat(70 * 1024)];
const WRONG_TYPES = [
  'text/plain', 'application/xml', '', 'multipart/form-data', 'multipart/mixed; boundary=x', 'application/x-www-form-urlencoded; charset=utf-16',
  'APPLICATION/X-WWW-FORM-URLENCODED', 'multipart/form-data; boundary=', 'multipart/form-data; boundary="unclosed', 'application/json; charset=utf-8',
];

function pageRequestFor(route: PageRoute, profileId: number) {
  const example = EXAMPLE_FORMS[route.id] ?? {};
  const known = Object.keys(example);
  const field = known.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.constantFrom<string>(...PAGE_FIELDS) })
    : fc.constantFrom<string>(...PAGE_FIELDS);
  const fields = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(field, formValue).map(([name, value]) => ({ ...example, [name]: value })) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom<string>(...PAGE_FIELDS), formValue, { maxKeys: 6 }) },
  );
  const param = (name: string) => (name === 'id'
    ? fc.constantFrom(String(profileId), '0', '-1', '2147483648', 'x', '%C4%80', '1e2')
    : fc.constantFrom('tr_fuzz', 'ord_fuzz', 'ideal', 'N-0000-0000', '%C4%80', 'x'.repeat(300), '.x.'));
  // The route's pattern with each parameter filled in (an optional one sometimes left out); `*` as a path of its own.
  const path = fc.tuple(...route.path.split('/').map((segment) => {
    if (!segment.startsWith(':')) return fc.constant(segment === '*' ? 'no/such/page' : segment);
    const optional = segment.endsWith('?');
    const value = param(segment.replace(/^:|\?$/g, ''));
    return optional ? fc.option(value, { nil: '' }) : value;
  })).map((segments) => `/${segments.filter(Boolean).join('/')}`);
  const returnQuery = fc.array(fc.tuple(fc.constantFrom('redirect', 'return', ...FIELDS), fc.oneof(fc.constantFrom(...RETURN_TARGETS), queryValue)), { maxLength: 3 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${RETURN_TARGETS.includes(v) ? encode(v) : v}`).join('&'));
  return fc.record({
    path,
    // React Router's own requests for a page's data (a form sent once the page runs) end in .data.
    data: fc.boolean(),
    query: returnQuery,
    fields,
    encoding: fc.constantFrom<Encoding>('urlencoded', 'urlencoded', 'urlencoded', 'multipart', 'multipart', 'json', 'raw'),
    breakage: mostly<Breakage>('none', ['wrong-boundary', 'no-boundary', 'truncated', 'no-end', 'wrong-type']),
    raw: fc.constantFrom(...RAW_BODIES),
    wrongType: fc.constantFrom(...WRONG_TYPES),
    cut: fc.double({ min: 0, max: 1, noNaN: true }),
    headers,
    host: mostly('localhost', ['LOCALHOST', 'evil.example', 'localhost:3000']),
  });
}

/** The body and its Content-Type as the request's encoding and breakage say. */
async function pageBody(r: { fields: Record<string, string>; encoding: Encoding; breakage: Breakage; raw: string; wrongType: string; cut: number }) {
  let body: string | Uint8Array<ArrayBuffer>;
  let type: string | undefined;
  if (r.encoding === 'json') [body, type] = [JSON.stringify(r.fields), 'application/json'];
  else if (r.encoding === 'raw') [body, type] = [r.raw, 'application/x-www-form-urlencoded'];
  else if (r.encoding === 'urlencoded') [body, type] = [new URLSearchParams(r.fields).toString(), 'application/x-www-form-urlencoded'];
  else {
    const form = new FormData();
    for (const [k, v] of Object.entries(r.fields)) form.append(k, v);
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    [body, type] = [new Uint8Array(await encoded.arrayBuffer()), encoded.headers.get('content-type')!];
    const bytes = body;
    if (r.breakage === 'wrong-boundary') type = 'multipart/form-data; boundary=----not-the-boundary';
    if (r.breakage === 'no-boundary') type = 'multipart/form-data';
    if (r.breakage === 'truncated') body = bytes.subarray(0, Math.floor(bytes.length * r.cut));
    if (r.breakage === 'no-end') body = bytes.subarray(0, Math.max(0, bytes.length - 8));
  }
  if (r.breakage === 'wrong-type') type = r.wrongType || undefined;
  return { body, type };
}

async function runPages(t: TestApp, kind: DatabaseKind) {
  const { user } = await signUp(t);
  let token = await t.services.accounts.createSession(user.id, t.siteId, 'fuzz');
  const routes = (await pageBuild()).routes.filter((r) => r.hasAction);
  // Every page that takes a form is found (a broken route listing would make this test pass vacuously).
  expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(['login', 'signup', 'complaints', 'reset-password', 'reset-password-do', 'signup-matches', 'members-id-signup']));
  expect(routes.length).toBeGreaterThanOrEqual(12);
  let cases = 0;
  let ip = 0;
  const failures: string[] = [];
  const ours = (host: string) => new Set(['http://localhost', 'http://localhost:3000', `http://${host.toLowerCase()}`]);

  for (const route of routes) {
    for (const signedIn of [false, true]) {
      const known = failures.length;
      await fc.assert(
        fc.asyncProperty(pageRequestFor(route, t.demoUserId), async (r) => {
          cases++;
          const cookies = [signedIn ? `${AUTH_COOKIE}=${token}` : '', r.headers.extraCookie ?? ''].filter(Boolean).join('; ');
          const h: Record<string, string> = { host: r.host };
          for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && k !== 'extraCookie') h[k] = v;
          if (cookies) h.cookie = cookies;
          const fields = Object.fromEntries(Object.entries(r.fields).map(([k, v]) => [k, v.replace('fuzz@example.org', `fuzz${cases}.page@example.org`)]));
          const { body, type } = await pageBody({ ...r, fields });
          if (type !== undefined) h['content-type'] = type;
          const path = r.data ? (r.path === '/' ? '/_.data' : `${r.path}.data`) : r.path;
          const url = `http://${r.host}${path}${r.query ? `?${r.query}` : ''}`;
          ip = (ip + 1) % 60000;
          let res: Response;
          try {
            res = await t.app.request(url, { method: 'POST', headers: h, body }, { incoming: { socket: { remoteAddress: `10.${(ip >> 8) & 255}.${ip & 255}.9` } } });
          } catch (error) {
            failures.push(`POST ${path} threw ${(error as Error).stack?.slice(0, 600)}`);
            return false;
          }
          const text = await res.text();
          const cut = (v: unknown) => JSON.stringify(v)?.slice(0, 160);
          const sent = `url ${cut(url)}, fields ${cut(fields)}, ${r.encoding}/${r.breakage}, type ${cut(type)}, origin ${cut(r.headers.origin)}`;
          const label = `POST ${path} (${route.id}, ${signedIn ? 'member' : 'visitor'}) -> ${res.status} ${text.slice(0, 160)} <- ${sent}`;
          if (res.status >= 500) {
            failures.push(label);
            return false;
          }
          const contentType = res.headers.get('content-type') ?? '';
          if (res.status >= 400 && contentType.includes('json')) {
            if (!isErrorShape(text)) {
              failures.push(`no JSON error shape: ${label}`);
              return false;
            }
          } else if (res.status >= 400 && !/text\/html|text\/x-script/.test(contentType)) {
            failures.push(`neither a page nor a JSON error: ${label}`);
            return false;
          }
          // A redirect (or React Router's redirect for a .data request) stays on this site.
          const location = res.headers.get('location') ?? res.headers.get('x-remix-redirect');
          if (location !== null && (!URL.canParse(location, url) || !ours(r.host).has(new URL(location, url).origin) || /^[/\\]{2}/.test(location))) {
            failures.push(`redirect off the site (${location}): ${label}`);
            return false;
          }
          if (signedIn && !(await t.services.accounts.sessionUserId(token, t.siteId))) token = await t.services.accounts.createSession(user.id, t.siteId, 'fuzz');
          return true;
        }),
        { numRuns: PAGE_RUNS[kind], seed: SEED + 7919 + routes.indexOf(route) * 2 + Number(signedIn), endOnFailure: true },
      ).catch((error: Error) => {
        if (failures.length === known) failures.push(`POST ${route.path} (${route.id}): ${error.message.slice(0, 1500)}`);
      });
    }
  }
  return { cases, failures, routes: routes.length };
}


describe.each(DATABASE_KINDS)('hostile requests to every endpoint and page action never answer 500 (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3, env: { MAIL_WEBHOOK_SECRET }, pages: true });
    await createStaff(t, { roles: ['admin'], knownToken: STAFF_TOKEN });
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  });

  it('answers generated hostile requests with 2xx, 3xx or a JSON 4xx', async () => {
    const { cases, failures, routes } = await run(t, kind);
    expect(failures, failures.join('\n')).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(routes * 2 * RUNS[kind]);
  }, 180_000);

  it('answers generated hostile form posts to every page action with 2xx, 3xx, a page or a JSON 4xx, and never redirects off the site', async () => {
    const { cases, failures, routes } = await runPages(t, kind);
    expect(failures, failures.join('\n')).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(routes * 2 * PAGE_RUNS[kind]);
  }, 300_000);
});
