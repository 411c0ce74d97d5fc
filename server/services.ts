import type { Db } from './db/client.ts';
import type { Clock } from './infra/clock.ts';
import { createEventBus } from './infra/events.ts';
import { createMemoryLiveBus, type LiveBus } from './infra/live-bus.ts';
import { createGamesService } from './games/games.service.ts';
import { createPageBounces } from './tracking/page-bounces.ts';
import type { Logger } from './infra/logger.ts';
import { createContactRules } from './accounts/contact-rules.ts';
import { createTestProvider } from './infra/payments/test-provider.ts';
import { createRateLimiter, databaseStore, type RateLimitStore } from './infra/rate-limit.ts';
import { LIMITS, type LimitName } from './infra/limits.ts';
import { createCookieSigner } from './infra/cookie-signer.ts';
import { createAccountsService } from './accounts/accounts.service.ts';
import { createChatService } from './chat/chat.service.ts';
import { createBansService } from './moderation/bans.service.ts';
import { createLikesService } from './likes/likes.service.ts';
import { createPaymentsService } from './payments/payments.service.ts';
import { createDiscountsService } from './payments/discounts.service.ts';
import { createPaymentProviders } from './payments/providers.ts';
import { createRecordsService } from './payments/records.service.ts';
import { createDirectDebitService } from './payments/direct-debit.service.ts';
import { createMemorySmsSender, type SmsSender } from './infra/sms/sms.ts';
import { createProfilesService } from './profiles/profiles.service.ts';
import { createProfileView } from './profiles/profile-view.ts';
import { createSearchService } from './search/search.service.ts';
import { createSettingsService } from './settings/settings.service.ts';
import type { SiteCacheOptions } from './settings/site-cache.ts';
import { databaseCache, type SharedCache } from './infra/shared-cache.ts';
import { createContentService } from './content/content.service.ts';
import { CONTENT_DIR } from './paths.ts';
import { createLifecycleService } from './accounts/lifecycle.service.ts';
import { createMemoryMailer } from './infra/mail/transport.ts';
import { createMailService, type MailConfig } from './notifications/mail.service.ts';
import { createNotificationsService } from './notifications/notifications.service.ts';
import type { PhotoStorage } from './infra/storage.ts';
import { createPhotosService } from './photos/photos.service.ts';
import { createBlocksService } from './blocks/blocks.service.ts';
import { createNoticesService } from './notices/notices.service.ts';
import { sharedGeo, type Geo } from './infra/geo/index.ts';
import { createSignupService } from './accounts/signup.service.ts';
import { createPushService, type VapidKeys } from './push/push.service.ts';
import { loadEnv, type Env } from './env.ts';
import { createLandersService } from './landers/landers.service.ts';
import { createPageTokens, loadPageTokens, type PageTokenTable } from './landers/page-tokens.ts';
import { join } from 'node:path';

/** Every service, wired once per process (or per test) with its dependencies passed in. */
export function createServices(deps: {
  db: Db;
  clock: Clock;
  /** Photo files (local disk or a bucket). */
  storage: PhotoStorage;
  logger?: Pick<Logger, 'error'>;
  /** Where mail goes; without it mails are kept in memory (tests that do not look at mail). */
  mail?: MailConfig;
  geo?: Geo;
  vapid?: Partial<VapidKeys>;
  /** Shared counters for rate limits: Redis when configured, else the database. */
  rateLimitStore?: RateLimitStore;
  /** COOKIE_SECRET; without it a key is generated once and kept in the database. */
  cookieSecret?: string;
  /** Where the sites live (PUBLIC_URL, PORT) and whether simulated payments may run on a public origin; defaults as in env.ts. */
  config?: Pick<Env, 'PUBLIC_URL' | 'PORT' | 'ALLOW_TEST_PAYMENTS'> & Partial<Pick<Env, 'MOLLIE_API_ENDPOINT'>>;
  /** Memos and version stamps shared by every instance: Redis when configured, else the database. */
  sharedCache?: SharedCache;
  siteCache?: SiteCacheOptions;
  /** Events for members' open tabs: Redis pub/sub between instances when configured, else this process. */
  live?: LiveBus;
  /** Where text messages (payment codes) go; without it they are kept in memory (tests). */
  sms?: SmsSender;
  /** The sites' short paths (`/{token}`); by default content/page-tokens.json. */
  pageTokens?: PageTokenTable;
}) {
  const { db, clock, storage } = deps;
  const rateLimitStore = deps.rateLimitStore ?? databaseStore(db);
  const sharedCache = deps.sharedCache ?? databaseCache(db, clock);
  const limiter = (name: LimitName) => createRateLimiter({ name, ...LIMITS[name], clock, store: rateLimitStore });
  const rateLimits = Object.fromEntries((Object.keys(LIMITS) as LimitName[]).map((n) => [n, limiter(n)])) as Record<LimitName, ReturnType<typeof limiter>>;
  const cookies = createCookieSigner({ db, secret: deps.cookieSecret });
  const config = deps.config ?? loadEnv({});
  const logger = deps.logger ?? { error: (m: string, ...r: unknown[]) => console.error(m, ...r) };
  const events = createEventBus({ db, clock, logger });
  const settings = createSettingsService({
    db, clock, origins: config, shared: sharedCache, siteCache: deps.siteCache,
    onError: (error) => logger.error('Reading the site version failed:', error),
  });
  const mail = createMailService({ db, config: deps.mail ?? { mailer: createMemoryMailer() }, logger, origin: settings.origin });
  const lifecycle = createLifecycleService({ db, clock, mail, storage, limits: rateLimits });
  const notifications = createNotificationsService({ db, clock, mail, limits: rateLimits });
  const live = deps.live ?? createMemoryLiveBus(logger);
  const contactRules = createContactRules({ db });
  const photos = createPhotosService({ db, clock, storage, contactRules, events });
  const profiles = createProfilesService({ db, clock, contactRules, gallery: photos.gallery });
  const testProvider = createTestProvider({ db, clock });
  const paymentProviders = createPaymentProviders({ db, clock, testProvider, mollieApiEndpoint: config.MOLLIE_API_ENDPOINT });
  const likes = createLikesService({ db, clock, events, contactRules });
  const search = createSearchService({ db, clock, memo: sharedCache });
  const discounts = createDiscountsService({ db, clock });
  const payments = createPaymentsService({
    db, clock, providers: paymentProviders, testCheckouts: testProvider, discounts,
    allowTestPaymentsOnPublic: config.ALLOW_TEST_PAYMENTS, isPublicDeployment: settings.isPublicDeployment, events,
  });
  const sms = deps.sms ?? createMemorySmsSender();
  return {
    db,
    clock,
    events,
    live,
    contactRules,
    settings,
    content: createContentService({ contentDir: CONTENT_DIR }),
    storage,
    photos,
    blocks: createBlocksService({ db, clock }),
    profiles,
    accounts: createAccountsService({ db, clock, profiles, events, limits: rateLimits }),
    signup: createSignupService({ db, clock, events }),
    push: createPushService({ db, clock, vapid: deps.vapid, logger }),
    mail,
    lifecycle,
    notifications,
    search,
    landers: createLandersService({ search: search.search }),
    pageTokens: createPageTokens(deps.pageTokens ?? loadPageTokens(join(CONTENT_DIR, 'page-tokens.json'))),
    geo: deps.geo ?? sharedGeo(),
    likes,
    viewProfile: createProfileView({ profiles, likes, events }),
    games: createGamesService({ db, clock, likes }),
    pageBounces: createPageBounces({ db, clock }),
    bans: createBansService({ db, clock, events }),
    notices: createNoticesService({ db, clock, events, mail, limits: rateLimits }),
    chat: createChatService({ db, clock, events, contactRules, live, storage, presence: sharedCache, profiles }),
    testProvider,
    paymentProviders,
    discounts,
    payments,
    sms,
    directDebit: createDirectDebitService({ db, clock, payments, discounts, sms }),
    records: createRecordsService({ db, clock, providers: paymentProviders, payments, events }),
    rateLimitStore,
    sharedCache,
    /** Every limit of infra/limits.ts; the per-IP ones are applied by the routes. */
    rateLimits,
    cookies,
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * What entry points (Hono handlers, React Router loaders and actions) may call: the use cases, never
 * the database, the photo files, the payment providers or the event plumbing behind them.
 */
export type UseCases = Omit<Services, 'db' | 'storage' | 'paymentProviders' | 'testProvider' | 'rateLimitStore' | 'sharedCache' | 'events' | 'live'>;
