import { actorFor } from './actor.ts';
import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type Next } from 'hono';
import { getCookie } from 'hono/cookie';
import { AUTH_COOKIE } from '#common/constants.ts';
import { STAFF_COOKIE } from '#common/staff.ts';
import { staffOfRequest } from './http/staff-cookies.ts';
import type { StaffActor } from './actor.ts';
import { LOCALE_COOKIE } from '#common/languages.ts';
import { accountsRoutes, setLocaleCookie } from './accounts/accounts.routes.ts';
import { CHAT_PHOTO_PATH, chatRoutes } from './chat/chat.routes.ts';
import type { Env } from './env.ts';
import type { AppEnv, RequestContext } from './http/context.ts';
import { isGiftUpload, requestBodyLimit, uploadBodyLimit } from './http/body-limit.ts';
import { resolveLanguage } from './http/language.ts';
import { seoRoutes } from './seo/seo.routes.ts';
import { appShellRoutes } from './app-shell/app-shell.routes.ts';
import { clientAddress, forwardedProto, limitKey } from './http/client-address.ts';
import type { Translator } from './i18n/i18n.ts';
import { translationsRoutes } from './i18n/translations.routes.ts';
import { isAppError } from './infra/errors.ts';
import type { Logger } from './infra/logger.ts';
import { paymentsRoutes } from './payments/payments.routes.ts';
import { directDebitRoutes } from './payments/direct-debit.routes.ts';
import { discountsRoutes } from './payments/discounts.routes.ts';
import { recordsRoutes } from './payments/records.routes.ts';
import { likesRoutes } from './likes/likes.routes.ts';
import { gamesRoutes } from './games/games.routes.ts';
import { pageBounceRoutes } from './tracking/page-bounces.routes.ts';
import type { Services } from './use-cases.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { cdnOrigin } from './settings/site-look.ts';
import { siteStylesheetRoutes } from './settings/site-stylesheet.routes.ts';
import { photoRoutes } from './photos/photo-files.routes.ts';
import { giftImageRoutes } from './chat/gift-images.routes.ts';
import { GIFT_IMAGE_PATH } from './chat/chat-messages.ts';
import { lifecycleRoutes } from './accounts/lifecycle.routes.ts';
import { notificationsRoutes } from './notifications/notifications.routes.ts';
import { devViewerGate } from './dev-tools/dev-tools.ts';
import { outboxViewer } from './dev-tools/mail-outbox.routes.ts';
import type { OutboxEntry } from './infra/mail/transport.ts';
import { smsOutboxViewer } from './dev-tools/sms-outbox.routes.ts';
import type { SmsOutboxEntry } from './infra/sms/sms.ts';
import { PHOTO_UPLOAD_PATH, photosApiRoutes } from './photos/photos-api.routes.ts';
import { moderationRoutes } from './moderation/moderation.routes.ts';
import { supportRoutes } from './support/support.routes.ts';
import { staffRoutes } from './staff/staff.routes.ts';
import { blocksRoutes } from './blocks/blocks.routes.ts';
import { reportsRoutes } from './moderation/reports.routes.ts';
import { profileRoutes } from './profiles/profile.routes.ts';
import { geoRoutes } from './geo/geo.routes.ts';
import { locationRoutes, searchRoutes } from './search/search.routes.ts';
import { firstTouchTracking } from './http/tracking.ts';
import { firstTouchLander } from './http/lander-touch.ts';
import { landerVisitCookie } from './http/lander-visits.ts';
import { signupRoutes } from './accounts/signup.routes.ts';
import { pushRoutes } from './push/push.routes.ts';
import { signupProfileRoutes } from './profiles/signup-profile.routes.ts';
import { sameOrigin, sameSiteOrigins } from './http/origin.ts';
import { appErrorText } from './http/error-text.ts';
import { compress } from './http/compress.ts';
import { securityHeaders } from './http/security-headers.ts';
import { openApiRoutes } from './http/openapi.routes.ts';
import { operationsRoutes, routeLabel } from './http/operations.routes.ts';
import type { Metrics } from './infra/metrics.ts';
import type { Readiness } from './infra/readiness.ts';
import { admissionControl, type Admission } from './http/admission.ts';
import { traceRequests } from './http/request-tracing.ts';
import type { Tracer } from '@opentelemetry/api';
import { isUnavailableError, serviceUnavailable, unavailableReason } from './infra/unavailable.ts';

export interface AppDeps {
  services: Services;
  translator: Translator;
  env: Env;
  logger: Logger;
  /** The built browser bundle (production); Vite serves it in development. */
  clientDir?: string;
  /** Renders pages (React Router); absent in API-only tests. */
  pages?: (request: Request, ctx: RequestContext) => Promise<Response>;
  /** The dev outbox, when mail is not sent over SMTP: its viewer is served at /dev/outbox (with DEV_TOOLS). */
  outbox?: { list(): OutboxEntry[]; read(id: string): OutboxEntry | null; dir: string };
  /** The dev SMS outbox, when no SMS gateway is configured: its viewer is served at /dev/sms (with DEV_TOOLS). */
  smsOutbox?: { list(): SmsOutboxEntry[]; dir: string };
  /** /healthz, /readyz and /metrics (with METRICS_TOKEN), and the request metrics. */
  operations?: { readiness: Readiness; metrics?: Metrics };
  /** Admission control: refuses requests beyond what the instance can answer in time (docs/decisions/078). */
  admission?: Admission;
  /** OpenTelemetry: a span per request (with OTEL_EXPORTER_OTLP_ENDPOINT). */
  tracer?: Tracer;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Runs the rest of the chain and makes sure its answer carries `name: value`. Set before the handler, the header goes
 * into the answer Hono builds (c.json, c.body), which stays @hono/node-server's lightweight Response, written to the
 * socket as it is; set after it (c.header), the answer is rebuilt as a full Response and its body read back as a
 * stream, a noticeable share of a small API answer's time. An answer made otherwise (photos, the outbox viewer)
 * still gets the header afterwards.
 */
async function keepHeader(c: Context<AppEnv>, next: Next, name: string, value: string): Promise<void> {
  c.header(name, value);
  await next();
  if (c.res.headers.get(name) !== value) c.header(name, value);
}

export function createApp(deps: AppDeps) {
  const { services, translator, env, logger } = deps;
  const app = new Hono<AppEnv>();
  // First, before the site is resolved: /healthz must answer while the database does not, and probes are not counted.
  if (deps.operations) app.route('/', operationsRoutes({ ...deps.operations, metricsToken: env.METRICS_TOKEN }));
  if (deps.tracer) app.use(traceRequests(deps.tracer));
  const metrics = deps.operations?.metrics;
  if (metrics) {
    app.use(async (c, next) => {
      const started = performance.now();
      await next();
      const { method, route } = routeLabel(c.req.method, c.req.routePath, c.req.path, c.res.status);
      metrics.request(method, route, c.res.status, (performance.now() - started) / 1000);
    });
  }
  // Refused before the site is looked up, so a refusal costs next to nothing; the built assets (immutable files a
  // page that was answered needs) are never refused.
  if (deps.admission) {
    const admit = admissionControl(deps.admission, { retryAfterSeconds: 1 }, translator, (reason) => metrics?.refused(reason));
    app.use((c, next) => (c.req.path.startsWith('/assets/') ? next() : admit(c, next)));
  }
  /** Whether this request really came over HTTPS (TLS here, or at the trusted proxy). */
  const isHttps = (c: Context<AppEnv>) => forwardedProto(c.req.header('x-forwarded-proto'), c.req.url.startsWith('https:') ? 'https' : 'http', env.TRUST_PROXY) === 'https';

  // The site comes first, so the security headers can name its CDN origin (docs/decisions/038).
  app.use(async (c, next) => {
    c.set('site', await services.settings.siteForHost(c.req.header('host')));
    return next();
  });
  // The origins a site's pages load files from besides this one (its CDN, its logo's host), worked out once per site.
  const siteOrigins = new WeakMap<object, { cdn: string; logo: string }>();
  const originsOf = (site: AppEnv['Variables']['site'] | undefined) => {
    if (!site) return { cdn: '', logo: '' };
    let origins = siteOrigins.get(site);
    if (!origins) {
      origins = { cdn: cdnOrigin(site.cdnPrefix ?? '') ?? '', logo: /^https?:/.test(site.logoUrl ?? '') ? cdnOrigin(site.logoUrl) ?? '' : '' };
      siteOrigins.set(site, origins);
    }
    return origins;
  };
  // The dev outbox's HTML part is a mail, not a page of the site: mails carry their styles in attributes (mail
  // clients drop style elements), which the site's policy refuses. It gets a policy of its own, set after the
  // site's: its styles and nothing else, no script, sandboxed (an origin of its own), never framed.
  if (env.DEV_TOOLS && deps.outbox && !env.SMTP_URL) {
    app.use('/dev/outbox/:id/html', async (c, next) => {
      await next();
      if (c.res.status === 200) c.res.headers.set('Content-Security-Policy', MAIL_PART_POLICY);
    });
  }
  // Outside all but the site, so the headers land on every response, whatever an inner layer returns. Further in, a
  // handler's own Response (photos, the outbox viewer) can be rebuilt by a later c.header(), and with
  // @hono/node-server's lightweight Response that rebuild dropped headers set on it in between.
  app.use(securityHeaders({
    contentSecurityPolicy: env.NODE_ENV !== 'development',
    origins: (c) => originsOf(c.get('site')),
  }));

  // HTML and JSON leave compressed (brotli or gzip); inside the security headers so they land on the compressed answer.
  app.use(compress());

  app.use(async (c, next) => {
    // A proxy's request id is kept when it looks like one, so log lines of both can be joined.
    const incomingId = c.req.header('x-request-id');
    const requestId = incomingId && /^[\w.:-]{1,64}$/.test(incomingId) ? incomingId : randomUUID();
    c.set('requestId', requestId);
    const started = performance.now();
    await keepHeader(c, next, 'X-Request-Id', requestId);
    logger.request({
      reqId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10, site: c.get('site')?.domain, userId: c.get('userId') ?? null,
    });
  });

  // Cross-site state changes are refused: the session cookie is SameSite=Lax, and this covers what Lax allows. An
  // Origin must be the site's own, scheme and port included: a page of another scheme or port on the same host is
  // another origin (and only same-site, which Sec-Fetch-Site does not refuse).
  app.use(async (c, next) => {
    if (UNSAFE.has(c.req.method)) {
      const site = c.req.header('sec-fetch-site');
      const origin = c.req.header('origin');
      if (site === 'cross-site' || (origin !== undefined && !sameOrigin(origin, sameSiteOrigins(services.settings.origin(c.get('site')), c.req.header('host'), isHttps(c))))) {
        return c.json({ error: { code: 'forbidden', message: translator.t('en', 'errors.forbidden') } }, 403);
      }
    }
    await next();
  });

  app.route('/photos', photoRoutes(services));
  app.route(GIFT_IMAGE_PATH, giftImageRoutes(services));
  // The dev viewers exist only with DEV_TOOLS=1, and never together with SMTP: a configuration that sends real mail has
  // no outbox to show. The mails hold sign-in links and the text messages payment codes, so only the operator on this
  // machine may read them, and nobody on a public deployment (devViewerGate).
  const devViewer = devViewerGate(env, () => services.settings.isPublicDeployment());
  if (env.DEV_TOOLS && deps.outbox && !env.SMTP_URL) app.use('/dev/outbox/*', outboxViewer(deps.outbox, devViewer));
  if (env.DEV_TOOLS && deps.smsOutbox && !env.SMS_URL) app.use('/dev/sms/*', smsOutboxViewer(deps.smsOutbox, devViewer));
  if (deps.clientDir) {
    const serve = serveStatic({ root: relative(process.cwd(), deps.clientDir) || '.', precompressed: true });
    app.use('*', async (c, next) => {
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
      if (c.req.path.startsWith('/api/')) return next();
      const res = await serve(c, next);
      if (res?.status === 200 || res?.status === 304) {
        // Hashed asset names never change content: cache them for a year. Other files (pictures, maps, logos)
        // keep their names across releases: a day, then the browser fetches them again. The service worker
        // script is always asked for, so a release reaches installed apps at once.
        res.headers.set('Cache-Control', c.req.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : c.req.path === '/sw.js' ? 'no-cache' : 'public, max-age=86400');
        // A file this server serves statically is public: pages of a site with a cdn_prefix load it across
        // origins (module scripts and fonts in CORS mode, images and styles embedded).
        res.headers.set('Access-Control-Allow-Origin', '*');
        res.headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
      }
      return res;
    });
  }

  // Before the request context: the translation files and the site's colours need no session (and answer without a statement).
  app.route('/', translationsRoutes(translator));
  app.route('/', siteStylesheetRoutes(services.settings));

  // Request context: site, session, language.
  app.use(async (c, next) => {
    const site = c.get('site');
    const sessionToken = getCookie(c, AUTH_COOKIE);
    const cookieLang = getCookie(c, LOCALE_COOKIE);
    // Pages show the member (navigation, badges), as does their own record; without the language cookie the member's
    // language decides the answer's. Those load the member with the session, in one statement.
    const withMember = !c.req.path.startsWith('/api/') || c.req.path === '/api/user.php' || !cookieLang;
    // Only a session made on this site, of a member of this site, counts (decision 051): another site's cookie is no
    // session here, so a member's requests are always served with their own site's settings.
    // A page whose session the database does not give answers that it is unavailable, as a page in the visitor's
    // language (server/pages.ts) rather than the API's JSON.
    const page = !c.req.path.startsWith('/api/');
    const read = await services.accounts.session(sessionToken, site.id, { withMember }).catch((error: unknown) => {
      if (!page || isAppError(error) || !isUnavailableError(error)) throw error;
      return 'unavailable' as const;
    });
    const unavailable = read === 'unavailable';
    const session = unavailable ? null : read;
    const userId = session?.userId ?? null;
    let memberPromise: ReturnType<typeof services.accounts.member> | undefined = session?.member === undefined ? undefined : Promise.resolve(session.member);
    const member = () => (memberPromise ??= userId ? services.accounts.member(userId) : Promise.resolve(null));
    const user = async () => (await member())?.user ?? null;
    const soughtGender = async () => (await member())?.soughtGender;
    // Links come from the resolved site, never from the Host header (an unknown host gets the default site's origin).
    const baseUrl = services.settings.origin(site);
    // Cookies are Secure when this request really came over HTTPS (TLS here, or at the trusted proxy).
    const secure = isHttps(c);
    let { lang, setCookie } = resolveLanguage({ cookie: cookieLang, site, acceptLanguage: c.req.header('accept-language') });
    if (!cookieLang && userId) {
      const u = await user();
      if (u) ({ lang, setCookie } = { lang: u.language as typeof lang, setCookie: true });
    }
    const cdnCountry = c.req.header('cf-ipcountry') ?? c.req.header('x-country-code');
    const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
    const ip = clientAddress(c.req.header('x-forwarded-for'), incoming?.socket?.remoteAddress, env.TRUST_PROXY);
    let staffPromise: Promise<StaffActor | null> | undefined;
    // The context's functions hold values, never the Hono context: a closure over `c` kept every request's objects
    // alive through several young-generation collections (promoted, then swept), a noticeable share of an API answer's time.
    const authorization = c.req.header('authorization');
    const staffCookie = getCookie(c, STAFF_COOKIE);
    const nonce = c.get('nonce');
    const staff = () => (staffPromise ??= staffOfRequest(services, authorization, staffCookie));
    const ctx: RequestContext = {
      ...(unavailable ? { unavailable } : {}),
      services, actor: actorFor(site.id, userId), staff, translator, env, site, lang, userId, chatListVersion: session?.chatListVersion ?? 0, user, soughtGender, baseUrl, secure,
      // Made when a page asks for it: an answer without inline elements names no nonce in its policy.
      get nonce() {
        return nonce.value;
      },
      // Every per-address limit keys on clientIp: an IPv6 client counts by its network, a mapped IPv4 one as IPv4.
      clientIp: limitKey(ip, env.RATE_LIMIT_IPV6_PREFIX),
      clientAddress: ip,
      // The CDN knows best; without its header the offline GeoIP database answers, looked up on first use
      // (few requests ask, and the look-up is a noticeable share of a small API answer's time).
      get geoipCountry() {
        const country = cdnCountry && /^[A-Z]{2}$/i.test(cdnCountry) ? cdnCountry.toUpperCase() : services.geo.countryForIp(ip);
        Object.defineProperty(this, 'geoipCountry', { value: country, enumerable: true });
        return country;
      },
      query: c.req.query(),
    };
    c.set('site', site);
    c.set('lang', lang);
    c.set('userId', userId);
    c.set('sessionToken', sessionToken);
    c.set('ctx', ctx);
    if (setCookie) setLocaleCookie(c, lang);
    await next();
  });
  app.use(firstTouchTracking);
  app.use(firstTouchLander);
  // The landers and a member's landing pages (/members/{id}/landing…; their .data answers too) count their visits.
  app.on(['GET', 'HEAD'], ['/landers/*', '/members/*'], landerVisitCookie);
  // After the context (the 413 speaks the member's language), before anything reads a body.
  app.use(requestBodyLimit((method, path) => method === 'POST' && (path === PHOTO_UPLOAD_PATH || path === CHAT_PHOTO_PATH || isGiftUpload(path))));
  // The console's gift form carries an image: its own ceiling, counted as it streams in.
  app.use('/console/gifts/*', uploadBodyLimit);

  const api = new Hono<AppEnv>();
  api.use((c, next) => keepHeader(c, next, 'Cache-Control', 'no-store'));
  api.route('/', settingsRoutes);
  api.route('/', pushRoutes);
  api.route('/', signupRoutes);
  api.route('/', accountsRoutes);
  // The search owns GET /members.php (with search_fields applied).
  api.route('/', searchRoutes);
  api.route('/', locationRoutes);
  api.route('/', signupProfileRoutes);
  api.route('/', likesRoutes);
  api.route('/', gamesRoutes);
  api.route('/', pageBounceRoutes);
  api.route('/', chatRoutes);
  api.route('/', paymentsRoutes);
  api.route('/', directDebitRoutes);
  api.route('/', discountsRoutes);
  api.route('/', recordsRoutes);
  api.route('/', lifecycleRoutes);
  api.route('/', notificationsRoutes);
  api.route('/', profileRoutes);
  api.route('/', photosApiRoutes);
  api.route('/', moderationRoutes);
  api.route('/', supportRoutes);
  api.route('/', staffRoutes);
  api.route('/', blocksRoutes);
  api.route('/', reportsRoutes);
  api.route('/', geoRoutes);
  api.route('/', openApiRoutes);
  app.route('/api', api);
  app.route('/', seoRoutes);
  app.route('/', appShellRoutes);
  app.all('/api/*', (c) => c.json({ error: { code: 'not_found', message: translator.t(c.get('lang') ?? 'en', 'errors.not_found') } }, 404));

  app.onError((caught, c) => {
    const lang = c.get('lang') ?? 'en';
    // The database or another service is away: the client is told to retry, nothing was half done (a transaction rolls back).
    const unavailable = !isAppError(caught) && isUnavailableError(caught);
    if (unavailable) logger.info(`${c.req.method} ${c.req.path}: a service is unavailable: ${unavailableReason(caught)}`, { reqId: c.get('requestId') });
    const error = unavailable ? serviceUnavailable() : caught;
    if (isAppError(error)) {
      if (error.status === 503) c.header('Cache-Control', 'no-store');
      const { message, details } = appErrorText(translator, lang, error);
      if (typeof error.params.retry_after === 'number') c.header('Retry-After', String(error.params.retry_after));
      const body = { error: { code: error.code, message, ...(Object.keys(details).length ? { details } : {}) } };
      return c.json(body, error.status);
    }
    logger.error(`${c.req.method} ${c.req.path} failed`, { reqId: c.get('requestId') }, error);
    return c.json({ error: { code: 'server_error', message: translator.t(lang, 'errors.server_error') } }, 500);
  });

  if (deps.pages) {
    const pages = deps.pages;
    app.all('*', (c) => {
      // Pages answer GET and HEAD, and their forms POST; anything else (a CORS preflight, a PUT) is not for them.
      if (!PAGE_METHODS.has(c.req.method)) {
        c.header('Allow', [...PAGE_METHODS].join(', '));
        if (c.req.method === 'OPTIONS') return c.body(null, 204);
        return c.json({ error: { code: 'method_not_allowed', message: translator.t(c.get('lang') ?? 'en', 'errors.method_not_allowed') } }, 405);
      }
      return pages(c.req.raw, c.get('ctx'));
    });
  }

  return app;
}

const PAGE_METHODS = new Set(['GET', 'HEAD', 'POST']);

/** The dev outbox's view of a mail's HTML part (see above). */
export const MAIL_PART_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox";

