import type { Db } from './db/client.ts';
import type { Clock } from './infra/clock.ts';
import { createEventBus } from './infra/events.ts';
import type { Logger } from './infra/logger.ts';
import { createContactRules } from './accounts/contact-rules.ts';
import { createTestProvider } from './infra/payments/test-provider.ts';
import { createRateLimiter } from './infra/rate-limit.ts';
import { createAccountsService } from './accounts/accounts.service.ts';
import { createChatService } from './chat/chat.service.ts';
import { createLikesService } from './likes/likes.service.ts';
import { createPaymentsService } from './payments/payments.service.ts';
import { createProfilesService } from './profiles/profiles.service.ts';
import { createSearchService } from './search/search.service.ts';
import { createSettingsService } from './settings/settings.service.ts';
import { createContentService } from './content/content.service.ts';
import { CONTENT_DIR } from './paths.ts';
import { createLifecycleService } from './accounts/lifecycle.service.ts';
import { createMemoryMailer } from './infra/mail/transport.ts';
import { createMailService, type MailConfig } from './notifications/mail.service.ts';
import { createNotificationsService } from './notifications/notifications.service.ts';
import type { PhotoStorage } from './infra/storage.ts';
import { createPhotosService } from './photos/photos.service.ts';
import { createBlocksService } from './blocks/blocks.service.ts';
import { sharedGeo, type Geo } from './infra/geo/index.ts';
import { createSignupService } from './accounts/signup.service.ts';
import { createPushService, type VapidKeys } from './push/push.service.ts';

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
}) {
  const { db, clock, storage } = deps;
  const logger = deps.logger ?? { error: (m: string, ...r: unknown[]) => console.error(m, ...r) };
  const events = createEventBus(logger);
  const mail = createMailService({ db, config: deps.mail ?? { mailer: createMemoryMailer() }, logger });
  const lifecycle = createLifecycleService({ db, clock, mail, storage });
  const notifications = createNotificationsService({ db, clock, events, mail });
  events.on('account.created', ({ userId }) => lifecycle.sendActivation(userId));
  const contactRules = createContactRules({ db });
  const photos = createPhotosService({ db, clock, storage, contactRules });
  const profiles = createProfilesService({ db, clock, contactRules, gallery: photos.gallery });
  const testProvider = createTestProvider({ db, clock });
  return {
    db,
    clock,
    events,
    contactRules,
    settings: createSettingsService({ db }),
    content: createContentService({ contentDir: CONTENT_DIR }),
    storage,
    photos,
    blocks: createBlocksService({ db, clock }),
    profiles,
    accounts: createAccountsService({ db, clock, profiles }),
    signup: createSignupService({ db, clock, events }),
    push: createPushService({ db, clock, vapid: deps.vapid, logger }),
    mail,
    lifecycle,
    notifications,
    search: createSearchService({ db, clock }),
    geo: deps.geo ?? sharedGeo(),
    likes: createLikesService({ db, clock, events, contactRules }),
    chat: createChatService({ db, clock, events, contactRules }),
    testProvider,
    payments: createPaymentsService({ db, clock, provider: testProvider }),
    rateLimits: {
      login: createRateLimiter({ limit: 20, windowMs: 15 * 60_000, clock }),
      signup: createRateLimiter({ limit: 10, windowMs: 60 * 60_000, clock }),
      /** Every endpoint that sends a mail (reset, activation, e-mail change, reactivation), per IP. */
      mail: createRateLimiter({ limit: 10, windowMs: 60 * 60_000, clock }),
      /** Token links and one-click unsubscribes, per IP: enough for people, too few for guessing. */
      links: createRateLimiter({ limit: 60, windowMs: 15 * 60_000, clock }),
    },
  };
}

export type Services = ReturnType<typeof createServices>;
