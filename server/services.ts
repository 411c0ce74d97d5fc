import type { Db } from './db/client.ts';
import type { Clock } from './infra/clock.ts';
import { createEventBus } from './infra/events.ts';
import { createMemoryLiveBus, type LiveBus } from './infra/live-bus.ts';
import { createGamesService } from './games/games.service.ts';
import { createPageBounces } from './tracking/page-bounces.ts';
import { createLanderVisits } from './landers/lander-visits.ts';
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
import { createSitePages } from './content/site-pages.ts';
import { CONTENT_DIR } from './paths.ts';
import { createLifecycleService } from './accounts/lifecycle.service.ts';
import { createMemoryMailer } from './infra/mail/transport.ts';
import { createMailService, type MailConfig } from './notifications/mail.service.ts';
import { createNotificationsService } from './notifications/notifications.service.ts';
import type { PhotoStorage } from './infra/storage.ts';
import { createPhotosService } from './photos/photos.service.ts';
import { createBlocksService } from './blocks/blocks.service.ts';
import { createNoticesService } from './moderation/notices.service.ts';
import { createModerationQueue } from './moderation/moderation-queue.ts';
import { createTextReviews } from './moderation/text-reviews.ts';
import { createPhotoQueue } from './moderation/photo-queue.ts';
import { createReportsService } from './moderation/reports.service.ts';
import { createStatements } from './moderation/statements.ts';
import { createFlagsService } from './moderation/flags.service.ts';
import { createMemberSupport } from './support/member-support.ts';
import { sharedGeo, type Geo } from './geo/geo.ts';
import { createSignupService } from './accounts/signup.service.ts';
import { createAuditLog } from './staff/audit.ts';
import { createStaffPasskeys } from './staff/staff-passkeys.ts';
import { createStaffService } from './staff/staff.service.ts';
import { createConsoleService } from './staff/console.service.ts';
import { createConsoleCatalogue } from './staff/console-catalogue.ts';
import { createConsoleDiscounts } from './staff/console-discounts.ts';
import { createConsoleGifts, createGiftImages } from './staff/console-gifts.ts';
import { createConsoleContent } from './staff/console-content.ts';
import { createConsoleCompanies } from './staff/console-companies.ts';
import { createConsoleSites } from './staff/console-sites.ts';
import { createAnswering } from './staff/answering.ts';
import { createFictionalProfiles } from './staff/fictional-profiles.ts';
import { createConversationReading } from './support/conversation-reading.ts';
import { createStaffTokens } from './staff/staff-tokens.ts';
import { createPushService, type VapidKeys } from './push/push.service.ts';
import { loadEnv, type Env } from './env.ts';
import { createLandersService } from './landers/landers.service.ts';
import { createPageTokens } from './landers/page-tokens.ts';
import type { Services } from './use-cases.ts';

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
}): Services {
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
  const mail = createMailService({ db, config: deps.mail ?? { mailer: createMemoryMailer() }, logger, origin: settings.origin, events });
  const lifecycle = createLifecycleService({ db, clock, mail, storage, limits: rateLimits });
  const notifications = createNotificationsService({ db, clock, mail, limits: rateLimits });
  const live = deps.live ?? createMemoryLiveBus(logger);
  const contactRules = createContactRules({ db, clock, meetingSites: settings.meetingSites });
  const audit = createAuditLog({ clock });
  const flags = createFlagsService({ db, clock, audit });
  const support = createMemberSupport({ db, clock, audit, mails: lifecycle });
  const statements = createStatements({ db, clock, events, mail });
  const photos = createPhotosService({ db, clock, storage, contactRules, events, audit, statements, site: settings.site });
  const profiles = createProfilesService({ db, clock, contactRules, gallery: photos.gallery, site: settings.site });
  const testProvider = createTestProvider({ db, clock });
  const paymentProviders = createPaymentProviders({ db, clock, testProvider, mollieApiEndpoint: config.MOLLIE_API_ENDPOINT });
  const likes = createLikesService({ db, clock, events, contactRules });
  const geo = deps.geo ?? sharedGeo();
  const search = createSearchService({ db, clock, memo: sharedCache, contactRules, site: settings.site, nearestPlace: geo.nearestPlace });
  const discounts = createDiscountsService({ db, clock });
  const payments = createPaymentsService({
    db, clock, providers: paymentProviders, testCheckouts: testProvider, discounts,
    allowTestPaymentsOnPublic: config.ALLOW_TEST_PAYMENTS, isPublicDeployment: settings.isPublicDeployment, events,
    site: settings.site, origin: settings.origin, discountCodeLimit: rateLimits.discountCodes,
  });
  const sms = deps.sms ?? createMemorySmsSender();
  const blocks = createBlocksService({ db, clock });
  const accounts = createAccountsService({ db, clock, profiles, events, limits: rateLimits });
  const chat = createChatService({
    db, clock, events, contactRules, live, storage, audit, presence: sharedCache, profiles, site: settings.site, packages: payments.packages, statements,
  });
  const bans = createBansService({ db, clock, events, audit, statements });
  const records = createRecordsService({ db, clock, providers: paymentProviders, payments, events, audit });
  const moderation = createModerationQueue({ db, clock, events, audit, statements });
  const texts = createTextReviews({ db, clock, events, audit, statements });
  const photoQueue = createPhotoQueue({ db, clock, audit });
  const pages = createContentService({ contentDir: CONTENT_DIR });
  return {
    db,
    clock,
    events,
    live,
    contactRules,
    settings,
    content: createSitePages({ pages, site: settings.site, company: settings.companyInfo, texts: settings.siteTexts }),
    storage,
    photos,
    blocks,
    profiles,
    accounts,
    signup: createSignupService({ db, clock, events, site: settings.site, accounts, likes, chat }),
    push: createPushService({ db, clock, vapid: deps.vapid, logger }),
    mail,
    lifecycle,
    notifications,
    search,
    landers: createLandersService({ search: search.search, site: settings.site, profiles }),
    pageTokens: createPageTokens({ texts: settings.siteTexts }),
    geo,
    likes,
    viewProfile: createProfileView({ profiles, likes, events }),
    games: createGamesService({ db, clock, likes, contactRules }),
    pageBounces: createPageBounces({ db, clock }),
    landerVisits: createLanderVisits({ db, clock }),
    bans,
    notices: createNoticesService({ db, clock, events, mail, audit, limits: rateLimits }),
    flags,
    support,
    reports: createReportsService({ db, clock, blocks, flags, limits: rateLimits }),
    statements,
    moderation,
    chat,
    testProvider,
    paymentProviders,
    discounts,
    payments,
    sms,
    directDebit: createDirectDebitService({ db, clock, payments, discounts, sms, audit, site: settings.site, discountCodeLimit: rateLimits.discountCodes }),
    records,
    audit,
    staff: createStaffService({ db, clock, audit, cookies, limits: rateLimits }),
    console: {
      ...createConsoleService({
        db, clock, audit, tokens: createStaffTokens({ db, clock, audit }), passkeys: createStaffPasskeys({ db, clock, audit, cookies }),
        support, conversations: createConversationReading({ db, audit }), flags, bans, records, moderation, texts, photoQueue, photos, chat,
      }),
      ...createConsoleSites({ db, audit, invalidateSites: settings.invalidateSites }),
      ...createConsoleCompanies({ db, audit, invalidateSites: settings.invalidateSites }),
      ...createConsoleCatalogue({ db, audit }),
      ...createConsoleDiscounts({ db, audit, clock }),
      ...createConsoleGifts({ db, audit, storage }),
      ...createConsoleContent({
        db, clock, audit, invalidateSites: settings.invalidateSites, pages, site: settings.site, company: settings.companyInfo, mail, origin: settings.origin,
      }),
    },
    giftImages: createGiftImages({ db, storage }),
    answering: createAnswering({ db, clock, audit, chat, profiles }),
    fictionalProfiles: createFictionalProfiles({ db, clock, audit, photos }),
    rateLimitStore,
    sharedCache,
    rateLimits,
    cookies,
  };
}
