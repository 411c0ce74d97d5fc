import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { languageIso, LOCALE_COOKIE, type Language } from '#common/languages.ts';
import { createTestApp, DATABASE_KINDS, signedInCookie, type TestApp } from '../tests/helpers/test-app.ts';
import { loadLocales } from './i18n/i18n.ts';

/**
 * Issue 28, item 5 for pages: a page (and the `.data` request of a navigation) whose loader, or whose session, meets a
 * database that does not answer was the generic error page with status 500. It answers 503 with Retry-After, with a
 * page that says so in the visitor's language; a page's other errors keep their status.
 */
describe.each(DATABASE_KINDS)('pages while the database is away (%s)', (kind) => {
  let t: TestApp;
  let member: Record<string, string>;
  const locales = loadLocales();
  /** The unavailable page's words in a language. */
  const says = (lang: Language) => {
    const table = locales[lang] as { errors: { unavailable: string }; error_page: { try_again: string } };
    return { message: table.errors.unavailable, tryAgain: table.error_page.try_again };
  };
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 3, pages: true });
    member = await signedInCookie(t);
  }, 300_000);
  /** The services a test stubs, given back after it (console.error stays the setup's). */
  const stubs: { mockRestore(): void }[] = [];
  const stub = <T extends object, K extends keyof T & string>(object: T, method: K) => {
    const spy = vi.spyOn(object, method as never) as unknown as ReturnType<typeof vi.fn> & { mockRestore(): void };
    stubs.push(spy);
    return spy;
  };
  afterEach(() => {
    for (const spy of stubs.splice(0)) spy.mockRestore();
  });
  afterAll(async () => {
    await t.services.events.settle();
    await t.close();
  }, 300_000);

  /** What pg says when the database's port refuses. */
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const get = async (path: string, cookie: string) => {
    const res = await t.app.request(`http://localhost${path}`, { headers: { host: 'localhost', cookie } });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), cacheControl: res.headers.get('cache-control'), text: (await res.text()).replaceAll('<!-- -->', '') };
  };

  it('a visitor\'s page whose loader meets the outage: 503, Retry-After, the message and a way to try again in their language', async () => {
    stub(t.services.search, 'showcase').mockRejectedValue(refused());
    for (const lang of ['de', 'fi'] as const) {
      const page = await get('/?ref=x', `${LOCALE_COOKIE}=${lang}`);
      expect({ status: page.status, retryAfter: page.retryAfter, cacheControl: page.cacheControl }).toEqual({ status: 503, retryAfter: '2', cacheControl: 'no-store' });
      expect(page.text).toContain(says(lang).message);
      expect(page.text).toContain(`href="/?ref=x">${says(lang).tryAgain}</a>`);
      expect(page.text).toContain(`<html lang="${languageIso(lang)}"`);
      expect(page.text).toContain(`data-lang="${lang}"`);
      // The client's data request of a navigation to it.
      const data = await get('/_.data', `${LOCALE_COOKIE}=${lang}`);
      expect({ status: data.status, retryAfter: data.retryAfter }).toEqual({ status: 503, retryAfter: '2' });
      expect(data.text).toContain(says(lang).message);
    }
  });

  it('a member\'s page whose session cannot be read: 503 in the language of their locale cookie, no loader runs', async () => {
    stub(t.services.accounts, 'session').mockRejectedValue(refused());
    const members = stub(t.services.search, 'find');
    const cookie = `${member.cookie.replace(/\blocale=\w+/, `${LOCALE_COOKIE}=sv`)}`;
    for (const path of ['/members', '/members.data']) {
      const page = await get(path, cookie);
      expect({ path, status: page.status, retryAfter: page.retryAfter }).toEqual({ path, status: 503, retryAfter: '2' });
      expect(page.text).toContain(says('sv').message);
    }
    expect(members).not.toHaveBeenCalled();
    // The API keeps its own answer: the JSON error shape.
    const api = await t.app.request('http://localhost/api/user.php', { headers: { host: 'localhost', cookie, 'x-request-type': 'client' } });
    expect(api.status).toBe(503);
    expect(await api.json()).toMatchObject({ error: { code: 'unavailable' } });
  });

  it('a loader\'s other errors keep their status', async () => {
    stub(t.services.search, 'showcase').mockRejectedValue(Object.assign(new Error('syntax error at or near "x"'), { code: '42601' }));
    // React Router logs the error (the setup's console.error spy would fail the test): expected here.
    vi.mocked(console.error).mockImplementation(() => {});
    expect((await get('/', `${LOCALE_COOKIE}=en`)).status).toBe(500);
  });

  it('answers the pages again once the database does', async () => {
    expect((await get('/', `${LOCALE_COOKIE}=en`)).status).toBe(200);
    expect((await get('/members', member.cookie)).status).toBe(200);
  });
});
