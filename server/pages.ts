import { createRequestHandler, data, RouterContextProvider, type RequestHandler, type ServerBuild, type RouterContext } from 'react-router';
import type { RequestContext } from './http/context.ts';
import { isAppError } from './infra/errors.ts';
import { isUnavailableError, serviceUnavailable } from './infra/unavailable.ts';
import { isConsolePath } from './http/console-pages.server.ts';
import { addressedOrigin, sameOrigin, sameSiteOrigins } from './http/origin.ts';
import { visitorNoindex } from './seo/seo.routes.ts';

/**
 * The server build exports its own context key (see app/entry.server.tsx), so both sides share one object, and
 * takes the translation tables the pages render from.
 */
type AmoraBuild = ServerBuild & {
  entry: { module: { requestContext: RouterContext<RequestContext>; provideTranslations(tables: RequestContext['translator']['resources']): void } };
};

/** Every asset URL of the browser manifest (entry, route modules, their imports and CSS) on the CDN origin. */
function prefixAssets<T>(value: T, prefix: string): T {
  if (typeof value === 'string') return (value.startsWith('/assets/') ? prefix + value : value) as T;
  if (Array.isArray(value)) return value.map((v) => prefixAssets(v, prefix)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.startsWith('/assets/') ? prefix + k : k, prefixAssets(v, prefix)])) as T;
  }
  return value;
}

/**
 * The build as a site with a cdn_prefix sees it: the same server code, with the browser manifest's
 * URLs on the CDN, so the document's scripts, module preloads and styles (and the client's later
 * route imports) load from there. Made once per build and prefix (docs/decisions/038).
 */
const cdnBuilds = new WeakMap<ServerBuild, Map<string, ServerBuild>>();
export function buildForCdn<B extends ServerBuild>(build: B, cdnPrefix: string): B {
  const prefix = cdnPrefix.replace(/\/+$/, '');
  if (!prefix) return build;
  let byPrefix = cdnBuilds.get(build);
  if (!byPrefix) cdnBuilds.set(build, (byPrefix = new Map()));
  let prefixed = byPrefix.get(prefix);
  if (!prefixed) byPrefix.set(prefix, (prefixed = { ...build, assets: prefixAssets(build.assets, prefix) }));
  return prefixed as B;
}

/**
 * One request handler per build: React Router derives its routes, route branches and static handler when a handler
 * first runs, and a handler made per request repeated that on every page (docs/decisions/024).
 */
const handlers = new WeakMap<ServerBuild, RequestHandler>();
function handlerFor(build: ServerBuild, mode: string) {
  let handler = handlers.get(build);
  if (!handler) handlers.set(build, (handler = createRequestHandler(build, mode)));
  return handler;
}

type RouteModule = NonNullable<ServerBuild['routes'][string]>['module'];
type RouteFunction = NonNullable<RouteModule['loader']> | NonNullable<RouteModule['action']>;

/**
 * A loader's or action's outage as the pages show it: a 503 (the answer's Retry-After is set in `cacheable`) whose
 * error page says, in the visitor's language, to try again in a moment (app/components/ErrorContent.tsx). It carries
 * the API's error shape, and the language and translation version for a page whose root data did not load either.
 */
function unavailablePage(ctx: RequestContext) {
  const { code } = serviceUnavailable();
  const message = ctx.translator.t(ctx.lang, `errors.${code}`);
  return data({ error: { code, message }, lang: ctx.lang, i18nVersion: ctx.translator.version }, { status: 503 });
}

/**
 * Whether an error of a loader or action means a service is away: the database's connection errors (as the API's
 * error handler tells them), and a use case's own 503 (the photo store).
 */
const outage = (error: unknown) => (isAppError(error) ? error.code === serviceUnavailable().code : isUnavailableError(error));

/**
 * The build whose loaders and actions answer an outage with the unavailable page, for the document and for its
 * `.data` requests alike: a database that does not answer was the generic error page with status 500. A request
 * whose session could not be read (`ctx.unavailable`) runs none of them. Made once per build.
 */
const outageBuilds = new WeakMap<ServerBuild, ServerBuild>();
function buildWithOutagePages<B extends AmoraBuild>(build: B): B {
  let wrapped = outageBuilds.get(build);
  if (!wrapped) {
    const key = build.entry.module.requestContext;
    const guard = <F extends RouteFunction>(run: F | undefined): F | undefined => {
      if (!run) return undefined;
      const guarded = async (args: Parameters<F>[0]) => {
        const ctx = (args.context as unknown as RouterContextProvider).get(key);
        if (ctx.unavailable) throw unavailablePage(ctx);
        try {
          return await (run as (a: typeof args) => unknown)(args);
        } catch (error) {
          if (outage(error)) throw unavailablePage(ctx);
          throw error;
        }
      };
      return guarded as unknown as F;
    };
    const routes = Object.fromEntries(Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const module = { ...route.module };
      if (module.loader) module.loader = guard(module.loader);
      if (module.action) module.action = guard(module.action);
      return [id, { ...route, module }];
    }));
    outageBuilds.set(build, (wrapped = { ...build, routes }));
  }
  return wrapped as B;
}

export function pagesHandler(getBuild: () => Promise<ServerBuild>, mode: string) {
  return async (request: Request, ctx: RequestContext): Promise<Response> => {
    const build = buildForCdn(buildWithOutagePages((await getBuild()) as AmoraBuild), ctx.site.cdnPrefix);
    const handler = handlerFor(build, mode);
    const context = new RouterContextProvider();
    context.set(build.entry.module.requestContext, ctx);
    // Before the loaders: they name countries from the tables too (app/lib/format.ts).
    build.entry.module.provideTranslations(ctx.translator.resources);
    const posted = request.method === 'POST' ? await formPost(request, ctx) : request;
    const response = posted instanceof Response ? posted : await handler(posted, context);
    return cacheable(response, ctx, new URL(request.url).pathname);
  };
}

const FORM_TYPE = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
/**
 * Field names as the pages' forms write them: a word, or words joined by dots (`email.new_message`). Conform reads
 * `a[9999999]` as a list that long, and echoes it back into the page: 13 bytes sent, 50 MB and seconds of work.
 */
const FIELD_NAME = /^[A-Za-z_][\w-]{0,63}(\.[A-Za-z_][\w-]{0,63}){0,3}$/;
const UNSAFE_NAME = /(^|\.)(__proto__|prototype|constructor)(\.|$)/;
/** Far above any form of the site (the word filter's 50 words, the interests' check boxes). */
const MAX_FIELDS = 300;

/** A page's JSON error, in the visitor's language (the shape of every error answer: the API's, the CSRF check's). */
function pageError(ctx: RequestContext, status: 400 | 415, code: string): Response {
  const body = JSON.stringify({ error: { code, message: ctx.translator.t(ctx.lang, `errors.${code}`) } });
  return new Response(body, { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}

/**
 * A post to a page is a form, or it is refused before any action runs: every action reads `request.formData()`,
 * which throws on another media type (JSON) or a body that does not parse (a broken multipart boundary, a truncated
 * part), and an action's throw was a 500. Checked here, once, every action present and future gets a form with field
 * names of the site's forms or never runs (415 with `form_required`, 400 with `invalid_input`). The body is at most
 * 64 KB (server/http/body-limit.ts), read once here and handed on.
 *
 * React Router checks the Origin of a post against the request's URL itself (a 400 on a mismatch), and knows
 * neither the scheme a trusted proxy reports nor the site's canonical origin: the action's request is addressed to
 * the origin the app's check accepted (server/http/origin.ts), so both checks agree.
 */
async function formPost(request: Request, ctx: RequestContext): Promise<Request | Response> {
  const type = request.headers.get('content-type') ?? '';
  if (!FORM_TYPE.test(type)) return pageError(ctx, 415, 'form_required');
  let body: ArrayBuffer;
  let form: FormData;
  try {
    body = await request.arrayBuffer();
    form = await new Response(body, { headers: { 'Content-Type': type } }).formData();
  } catch {
    return pageError(ctx, 400, 'invalid_input');
  }
  const names = [...form.keys()];
  if (names.length > MAX_FIELDS || names.some((name) => !FIELD_NAME.test(name) || UNSAFE_NAME.test(name))) return pageError(ctx, 400, 'invalid_input');
  const url = new URL(request.url);
  const allowed = sameSiteOrigins(ctx.baseUrl, request.headers.get('host') ?? undefined, ctx.secure);
  const origin = request.headers.get('origin') ?? '';
  const addressed = sameOrigin(origin, allowed) ? new URL(origin).origin : addressedOrigin(url.host, ctx.secure) ?? url.origin;
  return new Request(addressed + url.pathname + url.search, { method: request.method, headers: request.headers, body, signal: request.signal });
}

/**
 * Whether shared caches and the browser may keep a page: decided here, once for every page, its `.data` answer and
 * its redirects. An answer to a signed-in member shows them (their name, badges, payments, chats) and one that sets
 * a cookie (a log-in) belongs to its visitor: `private, no-store`. A visitor's answer keeps the caching it had; it
 * still depends on cookies (the language, the dismissed entry warning), so a cache keeps it per Cookie header.
 * A visitor's view of the members' area stays out of search indexes (server/seo/seo.routes.ts). The console's pages
 * are staff's: never kept by any cache, never indexed. An unavailable page (503) is kept by none, and says when to retry.
 */
function cacheable(response: Response, ctx: RequestContext, pathname: string): Response {
  const staffPage = isConsolePath(pathname);
  const personal = ctx.userId !== null || response.headers.has('set-cookie') || staffPage;
  const noindex = staffPage || (ctx.userId === null && visitorNoindex(pathname));
  const unavailable = response.status === 503;
  const set = (headers: Headers) => {
    if (personal || unavailable) headers.set('Cache-Control', unavailable ? 'no-store' : 'private, no-store');
    // A service was away (buildWithOutagePages): clients and crawlers come back when the API's 503 says.
    if (unavailable) headers.set('Retry-After', String(serviceUnavailable().params.retry_after));
    headers.append('Vary', 'Cookie');
    if (noindex) headers.set('X-Robots-Tag', 'noindex');
  };
  try {
    set(response.headers);
    return response;
  } catch {
    // A copy: a redirect's headers may be immutable.
    const copy = new Response(response.body, response);
    set(copy.headers);
    return copy;
  }
}

/** Without a page build the API still runs; every page says plainly why it is missing. */
export async function pagesUnavailable(): Promise<Response> {
  return new Response('Pages are not built on this server (run npm run build); the API at /api/*.php works.\n', {
    status: 503,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '60', 'Cache-Control': 'no-store' },
  });
}
