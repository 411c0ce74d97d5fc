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

/** Every service, wired once per process (or per test) with its dependencies passed in. */
export function createServices(deps: {
  db: Db;
  clock: Clock;
  logger?: Pick<Logger, 'error'>;
  /** Where mail goes; without it mails are kept in memory (tests that do not look at mail). */
  mail?: MailConfig;
  /** Photo files, removed when an account is purged. */
  photosDir?: string;
}) {
  const { db, clock } = deps;
  const logger = deps.logger ?? { error: (m: string, ...r: unknown[]) => console.error(m, ...r) };
  const events = createEventBus(logger);
  const mail = createMailService({ db, config: deps.mail ?? { mailer: createMemoryMailer() }, logger });
  const lifecycle = createLifecycleService({ db, clock, mail, photosDir: deps.photosDir });
  const notifications = createNotificationsService({ db, clock, events, mail });
  events.on('account.created', ({ userId }) => lifecycle.sendActivation(userId));
  const contactRules = createContactRules({ db });
  const profiles = createProfilesService({ db, clock, contactRules });
  const testProvider = createTestProvider({ db, clock });
  return {
    db,
    clock,
    events,
    contactRules,
    settings: createSettingsService({ db }),
    content: createContentService({ contentDir: CONTENT_DIR }),
    profiles,
    accounts: createAccountsService({ db, clock, profiles, events }),
    mail,
    lifecycle,
    notifications,
    search: createSearchService({ db, clock }),
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
