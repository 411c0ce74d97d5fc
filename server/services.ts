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
import { createSignupService } from './accounts/signup.service.ts';
import { createPushService, type VapidKeys } from './push/push.service.ts';

/** Every service, wired once per process (or per test) with its dependencies passed in. */
export function createServices(deps: { db: Db; clock: Clock; logger?: Pick<Logger, 'error'>; vapid?: Partial<VapidKeys> }) {
  const { db, clock } = deps;
  const events = createEventBus(deps.logger ?? { error: (m, ...r) => console.error(m, ...r) });
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
    accounts: createAccountsService({ db, clock, profiles }),
    signup: createSignupService({ db, clock }),
    push: createPushService({ db, clock, vapid: deps.vapid, logger: deps.logger }),
    search: createSearchService({ db, clock }),
    likes: createLikesService({ db, clock, events, contactRules }),
    chat: createChatService({ db, clock, events, contactRules }),
    testProvider,
    payments: createPaymentsService({ db, clock, provider: testProvider }),
    rateLimits: {
      login: createRateLimiter({ limit: 20, windowMs: 15 * 60_000, clock }),
      signup: createRateLimiter({ limit: 10, windowMs: 60 * 60_000, clock }),
    },
  };
}

export type Services = ReturnType<typeof createServices>;
