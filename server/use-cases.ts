import type { Db } from './db/client.ts';
import type { Clock } from './infra/clock.ts';
import type { EventBus } from './infra/events.ts';
import type { LiveBus } from './infra/live-bus.ts';
import type { PhotoStorage } from './infra/storage.ts';
import type { TestProvider } from './infra/payments/test-provider.ts';
import type { RateLimitStore, RateLimiter } from './infra/rate-limit.ts';
import type { LimitName } from './infra/limits.ts';
import type { SharedCache } from './infra/shared-cache.ts';
import type { SmsSender } from './infra/sms/sms.ts';
import type { Geo } from './geo/geo.ts';
import type { CookieSigner } from './infra/cookie-signer.ts';
import type { createContactRules } from './accounts/contact-rules.ts';
import type { createAccountsService } from './accounts/accounts.service.ts';
import type { createLifecycleService } from './accounts/lifecycle.service.ts';
import type { createSignupService } from './accounts/signup.service.ts';
import type { createBlocksService } from './blocks/blocks.service.ts';
import type { createChatService } from './chat/chat.service.ts';
import type { createSitePages } from './content/site-pages.ts';
import type { createGamesService } from './games/games.service.ts';
import type { createLandersService } from './landers/landers.service.ts';
import type { createPageTokens } from './landers/page-tokens.ts';
import type { createLikesService } from './likes/likes.service.ts';
import type { createBansService } from './moderation/bans.service.ts';
import type { createNoticesService } from './moderation/notices.service.ts';
import type { ModerationQueue } from './moderation/moderation-queue.ts';
import type { ReportsService } from './moderation/reports.service.ts';
import type { Statements } from './moderation/statements.ts';
import type { FlagsService } from './moderation/flags.service.ts';
import type { MemberSupport } from './support/member-support.ts';
import type { createMailService } from './notifications/mail.service.ts';
import type { createNotificationsService } from './notifications/notifications.service.ts';
import type { createPaymentsService } from './payments/payments.service.ts';
import type { createDiscountsService } from './payments/discounts.service.ts';
import type { PaymentProviders } from './payments/providers.ts';
import type { createRecordsService } from './payments/records.service.ts';
import type { createDirectDebitService } from './payments/direct-debit.service.ts';
import type { createPhotosService } from './photos/photos.service.ts';
import type { createProfilesService } from './profiles/profiles.service.ts';
import type { createProfileView } from './profiles/profile-view.ts';
import type { createPushService } from './push/push.service.ts';
import type { createSearchService } from './search/search.service.ts';
import type { createSettingsService } from './settings/settings.service.ts';
import type { createPageBounces } from './tracking/page-bounces.ts';
import type { createLanderVisits } from './landers/lander-visits.ts';
import type { AuditLog } from './staff/audit.ts';
import type { createStaffService } from './staff/staff.service.ts';
import type { ConsoleService } from './staff/console.service.ts';
import type { ConsoleSites } from './staff/console-sites.ts';
import type { ConsoleCatalogue } from './staff/console-catalogue.ts';
import type { ConsoleDiscounts } from './staff/console-discounts.ts';
import type { ConsoleGifts, GiftImages } from './staff/console-gifts.ts';
import type { ConsoleContent } from './staff/console-content.ts';
import type { ConsoleCompanies } from './staff/console-companies.ts';
import type { Answering } from './staff/answering.ts';
import type { FictionalProfiles } from './staff/fictional-profiles.ts';

/**
 * The bag of services that services.ts wires once per process (or per test), declared here, below the entry
 * points, so that handlers, the live socket and the subscribers can name it without importing the composition
 * root (decision 053). createServices() is typed to return exactly this.
 */
export interface Services {
  db: Db;
  clock: Clock;
  events: EventBus;
  live: LiveBus;
  contactRules: ReturnType<typeof createContactRules>;
  settings: ReturnType<typeof createSettingsService>;
  content: ReturnType<typeof createSitePages>;
  storage: PhotoStorage;
  photos: ReturnType<typeof createPhotosService>;
  blocks: ReturnType<typeof createBlocksService>;
  profiles: ReturnType<typeof createProfilesService>;
  accounts: ReturnType<typeof createAccountsService>;
  signup: ReturnType<typeof createSignupService>;
  push: ReturnType<typeof createPushService>;
  mail: ReturnType<typeof createMailService>;
  lifecycle: ReturnType<typeof createLifecycleService>;
  notifications: ReturnType<typeof createNotificationsService>;
  search: ReturnType<typeof createSearchService>;
  landers: ReturnType<typeof createLandersService>;
  pageTokens: ReturnType<typeof createPageTokens>;
  geo: Geo;
  likes: ReturnType<typeof createLikesService>;
  viewProfile: ReturnType<typeof createProfileView>;
  games: ReturnType<typeof createGamesService>;
  pageBounces: ReturnType<typeof createPageBounces>;
  /** Visits to landers per site, lander and day. */
  landerVisits: ReturnType<typeof createLanderVisits>;
  bans: ReturnType<typeof createBansService>;
  notices: ReturnType<typeof createNoticesService>;
  /** Members reporting members (decision 057). */
  reports: ReportsService;
  /** Statements of reasons and members' appeals. */
  statements: Statements;
  /** Moderators' queues of reports and appeals. */
  moderation: ModerationQueue;
  flags: FlagsService;
  support: MemberSupport;
  chat: ReturnType<typeof createChatService>;
  testProvider: TestProvider;
  paymentProviders: PaymentProviders;
  discounts: ReturnType<typeof createDiscountsService>;
  payments: ReturnType<typeof createPaymentsService>;
  sms: SmsSender;
  directDebit: ReturnType<typeof createDirectDebitService>;
  records: ReturnType<typeof createRecordsService>;
  /** Written by staff use cases inside their own transactions; entry points never write it. */
  audit: AuditLog;
  staff: ReturnType<typeof createStaffService>;
  /** Every screen and action of the operator console (the authorization test enumerates them). */
  console: ConsoleService & ConsoleSites & ConsoleCompanies & ConsoleCatalogue & ConsoleDiscounts & ConsoleGifts & ConsoleContent;
  giftImages: GiftImages;
  /** Staff answering as fictional profiles, and their response times. */
  answering: Answering;
  /** Staff creating and editing fictional profiles. */
  fictionalProfiles: FictionalProfiles;
  rateLimitStore: RateLimitStore;
  sharedCache: SharedCache;
  /** Every limit of infra/limits.ts; the per-IP ones are applied by the routes. */
  rateLimits: Record<LimitName, RateLimiter>;
  cookies: CookieSigner;
}

/**
 * What entry points (Hono handlers, React Router loaders and actions) may call: the use cases, never
 * the database, the photo files, the payment providers or the event plumbing behind them.
 */
export type UseCases = Omit<Services, 'db' | 'storage' | 'paymentProviders' | 'testProvider' | 'rateLimitStore' | 'sharedCache' | 'events' | 'live' | 'audit' | 'flags' | 'support'>;
