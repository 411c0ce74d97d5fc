import type { ChatSummary, CreditPackage } from '#common/api-types.ts';
import { requireMember, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import type { PhotoStorage } from '../infra/storage.ts';
import type { SharedCache } from '../infra/shared-cache.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventBus } from '../infra/events.ts';
import type { LiveBus } from '../infra/live-bus.ts';
import type { ContactRules } from '../accounts/contact-rules.ts';
import type { ProfilesService } from '../profiles/profiles.service.ts';
import { createChatList } from './chat-list.ts';
import { createConversations } from './chat-messages.ts';
import { createChatPhotos } from './chat-photos.ts';
import type { Statements } from '../moderation/statements.ts';
import { createChatPresence } from './chat-presence.ts';
import { createChatSend, type ChatSite } from './chat-send.ts';
import { createChatTerms } from './chat-terms.ts';
import type { AuditLog } from '../staff/audit.ts';

/**
 * The chat, one service over its parts: sending (chat-send.ts), reading conversations (chat-messages.ts), the chat
 * list (chat-list.ts), photos and their moderation (chat-photos.ts), typing and who looks at what
 * (chat-presence.ts), and the gifts and prices a member writes under (chat-terms.ts).
 */
export function createChatService(deps: {
  db: Db; clock: Clock; events: EventBus; contactRules: ContactRules; live: LiveBus; storage: PhotoStorage; audit: AuditLog;
  /** Statements of reasons for rejected chat photos. */
  statements: Statements;
  /** Shared by every instance: which conversation each member is looking at. */
  presence: SharedCache;
  /** Opening a conversation from a profile: the profile as its viewer may see it. */
  profiles: Pick<ProfilesService, 'detail' | 'former'>;
  /** The actor's site: its prices, free messages, length limit and niche. */
  site: (siteId: number) => Promise<ChatSite & { niche: number }>;
  /** The bundles sold in a currency (payments.packages), for the chat's prices in money. */
  packages: (currency: string) => Promise<CreditPackage[]>;
}) {
  const { db, clock, events, contactRules, live } = deps;
  const conversations = createConversations({ db, events, contactRules, profiles: deps.profiles });
  const photos = createChatPhotos({ db, clock, storage: deps.storage, contactRules, audit: deps.audit, events, statements: deps.statements });
  const sending = createChatSend({ db, clock, events, live, contactRules, conversations, photos, site: deps.site });
  const presence = createChatPresence({ db, live, contactRules, conversations, presence: deps.presence });
  const terms = createChatTerms({ db, site: deps.site, packages: deps.packages, freeMessagesLeft: sending.freeMessagesLeft });
  const chatsAnswer = createChatList({ db, clock });

  return {
    send: sending.send,
    freeMessagesLeft: sending.freeMessagesLeft,
    gifts: terms.gifts,
    terms: terms.terms,
    photoAccess: photos.photoAccess,
    pendingPhotos: photos.pendingPhotos,
    moderatePhoto: photos.moderatePhoto,

    /** `version`: the member's chat-list version read with this request's session, when it may be served from the copy. */
    async list(actor: Actor, version?: number): Promise<ChatSummary[]> {
      return (JSON.parse((await chatsAnswer(requireMember(actor).userId, version)).toString()) as { chats: ChatSummary[] }).chats;
    },

    /** `list` as chats.php's answer, `{"chats":[…]}` in the bytes to send as they are. */
    async chatsAnswer(actor: Actor, version?: number): Promise<Buffer<ArrayBuffer>> {
      return chatsAnswer(requireMember(actor).userId, version);
    },

    read: conversations.read,
    openWith: conversations.openWith,
    removeWith: conversations.removeWith,
    remove: conversations.remove,
    typing: presence.typing,
    setViewing: presence.setViewing,
    seenOrViewing: presence.seenOrViewing,
  };
}
