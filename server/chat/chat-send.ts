import { and, eq, sql } from 'drizzle-orm';
import { requireMember, type Actor } from '../actor.ts';
import type { ChatMessage } from '#common/api-types.ts';
import { chatCosts, matchesWordFilter } from '#common/chat.ts';
import { FREE_CONVERSATIONS } from '#common/constants.ts';
import type { Db, Tx } from '../db/client.ts';
import { chatPhotos, conversationMembers, conversations, gifts, messages, profiles, spendCaps, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import type { LiveBus } from '../infra/live-bus.ts';
import { meetsSite, notBlockedWith, type ContactRules } from '../accounts/contact-rules.ts';
import { assertWithinSpendCap } from '../credits/spend-cap.ts';
import { spendLedgerRowSql, spendSql } from '../credits/ledger.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { executePrepared } from '../db/prepared.ts';
import type { Site } from '../settings/settings.service.ts';
import type { ChatPhotos } from './chat-photos.ts';
import type { Conversations, MessageRow } from './chat-messages.ts';

/** What is sent: a text, a gift from the catalogue, or a photo (its uploaded bytes). */
export type MessageContent = { kind: 'text'; text: string } | { kind: 'gift'; giftId: number } | { kind: 'photo'; photo: Buffer };

/** What a send asks for; what it costs, how long it may be and whether it is free, the sender's site and country decide. */
export interface SendInput {
  recipientId: number;
  content: MessageContent;
  idempotencyKey: string;
}

/**
 * A fictional profile's answer written by staff (answering.ts): it costs nothing, carries the staff member's id
 * (never shown to the member) and `record` writes its audit row in the send's transaction.
 */
export interface StaffAnswer { staffId: number; record(tx: Tx, messageId: number): Promise<void> }

/** The settings of a site that price and limit the chat. */
export type ChatSite = Pick<Site, 'messageCredits' | 'giftCredits' | 'photoCredits' | 'minimumMessageCosts' | 'messageLength' | 'freeMessages'>;

const LEDGER_REASON = { text: 'message', gift: 'gift', photo: 'chat_photo' } as const;
/** Which of chatCosts' prices a kind of message costs. */
const PRICE = { text: 'message', gift: 'gift', photo: 'photo' } as const;

/** The same text to this many other members within an hour is refused (copy-paste spam). */
export const SAME_TEXT_RECIPIENTS = 5;
const SAME_TEXT_WINDOW_MS = 3_600_000;

/** Sending a text, a gift or a photo: every check, the charge and the message in one transaction. */
export function createChatSend(deps: {
  db: Db; clock: Clock; events: EventBus; live: LiveBus; contactRules: ContactRules;
  conversations: Pick<Conversations, 'messageOut' | 'findWith'>;
  photos: Pick<ChatPhotos, 'store' | 'removeFiles'>;
  /** The sender's site, whose settings price and limit their messages. */
  site: (siteId: number) => Promise<ChatSite>;
}) {
  const { db, clock } = deps;
  const { messageOut, findWith } = deps.conversations;

  /**
   * One send in one statement: the charge (the balance's conditional update and its ledger row, written by
   * credits/ledger.ts as spendCredits books them), the pair's conversation and both members' rows (unread
   * count, a hidden chat shown again), the chat photo's row, the message and the outbox rows of its notifications. When
   * the balance does not cover `cost` nothing is written and there is no row.
   */
  async function sendStatement(q: Db | Tx, s: {
    senderId: number; recipientId: number; content: MessageContent; text: string; filtered: boolean; cost: number; idempotencyKey: string;
    answeredBy: number | null;
    photo: { filename: string; thumbFilename: string; width: number; height: number } | null; now: Date;
  }) {
    const { senderId, recipientId, content, filtered, cost, photo, now } = s;
    const [low, high] = senderId < recipientId ? [senderId, recipientId] : [recipientId, senderId];
    const giftId = content.kind === 'gift' ? content.giftId : null;
    const payload = sql`jsonb_build_object('messageId', m.id, 'conversationId', m.conversation_id, 'senderId', ${senderId}::int,
      'recipientId', ${recipientId}::int, 'kind', ${content.kind}::text, 'text', ${s.text}::text)`;
    const outboxRows = filtered ? null : deps.events.recordSql('message.sent', payload, sql`m`);
    const [row] = await executePrepared<{ id: number | string; conversation_id: number | string; chat_photo_id: number | string | null; spent: number | null; balance: number | null }>(q, 'chat_send', sql`
      with debit as (
        ${spendSql(senderId, cost)}
      ), conv as (
        insert into ${conversations} (user_low, user_high, created_at, last_message_at)
        select ${low}::int, ${high}::int, ${now}::timestamptz, ${now}::timestamptz where ${cost}::int = 0 or exists (select 1 from debit)
        on conflict (user_low, user_high) do update set last_message_at = excluded.last_message_at
        returning id
      ), members as (
        insert into ${conversationMembers} (conversation_id, user_id, hidden, unread_count)
        select conv.id, v.user_id, v.hidden, v.unread
        from conv, (values (${senderId}::int, false, 0), (${recipientId}::int, ${filtered}::boolean, ${filtered ? 0 : 1}::int)) as v(user_id, hidden, unread)
        on conflict (conversation_id, user_id) do update
          set hidden = ${conversationMembers}.hidden and excluded.hidden, unread_count = ${conversationMembers}.unread_count + excluded.unread_count
      ), photo as (
        insert into ${chatPhotos} (conversation_id, sender_id, filename, thumb_filename, width, height, status, created_at)
        select conv.id, ${senderId}::int, ${photo?.filename ?? null}::text, ${photo?.thumbFilename ?? null}::text, ${photo?.width ?? null}::int,
          ${photo?.height ?? null}::int, 'active', ${now}::timestamptz
        from conv where ${photo !== null}::boolean
        returning id
      ), m as (
        insert into ${messages} (conversation_id, sender_id, kind, body, gift_id, chat_photo_id, filtered, credits_spent, idempotency_key, answered_by, created_at)
        select conv.id, ${senderId}::int, ${content.kind}::text, ${s.text}::text, ${giftId}::int, (select id from photo), ${filtered}::boolean,
          ${cost}::int, ${s.idempotencyKey}::text, ${s.answeredBy}::int, ${now}::timestamptz
        from conv
        returning id, conversation_id, chat_photo_id
      ), ledger as (
        ${spendLedgerRowSql({ userId: senderId, amount: cost, reason: LEDGER_REASON[content.kind], reference: sql`m.id`, from: sql`debit, m`, now })}
      )${outboxRows ? sql`, notify as (${outboxRows})` : sql``}
      select m.id, m.conversation_id, m.chat_photo_id, (select credits from debit) as spent,
        (select credits from ${users} where id = ${senderId}) as balance
      from m`);
    return row;
  }

  const sameContent = (row: MessageRow, content: MessageContent) =>
    row.kind === content.kind
    && (content.kind !== 'text' || row.body === content.text.trim())
    && (content.kind !== 'gift' || row.giftId === content.giftId);

  /**
   * The message this key already sent, if any. A retry must be the same request: the same key with
   * another recipient or content is refused rather than answered with the first message.
   */
  async function existingSend(senderId: number, key: string, recipientId: number, content: MessageContent) {
    const [found] = await db
      .select({ row: messages, low: conversations.userLow, high: conversations.userHigh })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(eq(messages.senderId, senderId), eq(messages.idempotencyKey, key)));
    if (!found) return undefined;
    const sentTo = found.low === senderId ? found.high : found.low;
    if (sentTo !== recipientId || !sameContent(found.row, content)) throw new AppError(422, 'idempotency_key_reused');
    return found.row;
  }

  const freeMessagesUsed = (q: Db | Tx, senderId: number) =>
    q.$count(messages, and(eq(messages.senderId, senderId), eq(messages.kind, 'text'), eq(messages.creditsSpent, 0), eq(messages.filtered, false)));

  /**
   * Spec section 6 for members who have not bought credits yet: they write in at most
   * FREE_CONVERSATIONS conversations, and their first `freeMessages` messages cost nothing. Holds the
   * sender's row, so parallel sends cannot use one free message twice. Returns whether this one is free.
   */
  async function useFreeMessage(tx: Tx, senderId: number, recipientId: number, freeMessages: number): Promise<boolean> {
    const [sender] = await tx.select({ paid: users.paidUser }).from(users).where(eq(users.id, senderId)).for('update');
    if (!sender || sender.paid) return false;
    const convId = await findWith(senderId, recipientId, tx);
    const written = await tx.selectDistinct({ id: messages.conversationId }).from(messages).where(eq(messages.senderId, senderId));
    if (!written.some((w) => w.id === convId) && written.length >= FREE_CONVERSATIONS) {
      throw new AppError(403, 'free_conversation_limit', { count: FREE_CONVERSATIONS });
    }
    return (await freeMessagesUsed(tx, senderId)) < freeMessages;
  }

  /** The free messages left to a sender who has not bought credits (`paid`: they have; none then). */
  const freeLeft = async (senderId: number, paid: boolean, site: ChatSite) =>
    paid ? 0 : Math.max(0, site.freeMessages - (await freeMessagesUsed(db, senderId)));

  /**
   * What a send checks before its transaction, in one statement: whether this idempotency key already
   * sent a message, the recipient (account, profile, word filter), a block either way or sites that do not share
   * their members (decision 051; either makes the recipient not there for the sender), whether the
   * sender has bought credits (paid_user is never taken back), the sender's country (it prices their messages), and
   * for a text how many other members got the same text from the sender within the hour (copy-paste spam).
   */
  async function sendChecks(senderId: number, recipientId: number, key: string, text: string | null) {
    const since = new Date(clock().getTime() - SAME_TEXT_WINDOW_MS);
    const sameText = text === null ? sql`0` : sql`(
      select count(distinct case when c.user_low = ${senderId} then c.user_high else c.user_low end)
      from ${messages} m join ${conversations} c on c.id = m.conversation_id
      where m.sender_id = ${senderId} and md5(m.body) = md5(${text}) and m.body = ${text} and m.created_at > ${since}
        and (case when c.user_low = ${senderId} then c.user_high else c.user_low end) <> ${recipientId})`;
    const [row] = await executePrepared<{
      existing: boolean; status: string | null; profile_status: string | null; suspended: boolean; word_filter: string[] | null;
      blocked: boolean; sender_paid: boolean | null; sender_country: string | null; capped: boolean; same_text: number | string;
    }>(db, 'chat_send_checks', sql`
      select
        exists (select 1 from ${messages} where sender_id = ${senderId} and idempotency_key = ${key}) as existing,
        u.status, p.status as profile_status, u.word_filter, coalesce(u.suspended_until > ${clock().toISOString()}::timestamptz, false) as suspended,
        not ${notBlockedWith(senderId, sql`${recipientId}::int`)}
          or not coalesce(${meetsSite(sql`(select site_id from ${users} where id = ${senderId})`, sql`u.site_id`)}, false) as blocked,
        (select paid_user from ${users} where id = ${senderId}) as sender_paid,
        (select country from ${profiles} where user_id = ${senderId}) as sender_country,
        exists (select 1 from ${spendCaps} where user_id = ${senderId}) as capped,
        ${sameText}::int as same_text
      from (select 1) as one
      left join ${users} u on u.id = ${recipientId}
      left join ${profiles} p on p.user_id = u.id`);
    return { ...row, same_text: Number(row.same_text) };
  }

  async function balance(userId: number): Promise<number> {
    const [u] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
    return u?.credits ?? 0;
  }

  return {
    /**
     * Sends a text, a gift or a photo and charges its credits in one transaction with its ledger row. The
     * sender's site and country price it (the country's minimum message cost), the site limits a text's length
     * and gives members who have not bought credits their free messages. The client retries up to 5 times, so the
     * idempotency key makes a retried send return the first result without charging again. A text the
     * recipient's word filter matches is stored for the sender only, costs nothing and notifies no one. A text's
     * answer says how many free messages its sender has left.
     */
    async send(actor: Actor, input: SendInput, answering?: StaffAnswer): Promise<{ message: ChatMessage; credits: number; duplicate: boolean; freeMessagesLeft?: number }> {
      const { userId: senderId, siteId } = requireMember(actor);
      const { recipientId, idempotencyKey, content } = input;
      const text = content.kind === 'text' ? content.text.trim() : '';
      const [site, checks] = await Promise.all([deps.site(siteId), sendChecks(senderId, recipientId, idempotencyKey, content.kind === 'text' ? text : null)]);
      const paid = checks.sender_paid === true;
      const freeMessagesLeft = async () => (content.kind === 'text' ? { freeMessagesLeft: await freeLeft(senderId, paid, site) } : {});
      if (checks.existing) {
        const previous = await existingSend(senderId, idempotencyKey, recipientId, content);
        if (previous) return { message: await messageOut(previous, senderId), credits: await balance(senderId), duplicate: true, ...(await freeMessagesLeft()) };
      }
      const maxLength = site.messageLength;
      if (content.kind === 'text' && !text) throw new AppError(400, 'message_empty');
      if (text.length > maxLength) throw new AppError(400, 'message_too_long', { max: maxLength });
      if (senderId === recipientId) throw new AppError(400, 'cannot_message_self');
      if (!checks.status || !checks.profile_status || checks.status === 'deleted' || checks.profile_status === 'disabled' || checks.suspended) throw notFound();
      deps.contactRules.assertMessageAllowed({ blocked: checks.blocked, recipientStatus: checks.status });
      if (checks.same_text >= SAME_TEXT_RECIPIENTS) throw new AppError(429, 'same_text_throttled', { count: SAME_TEXT_RECIPIENTS });
      // A gift with its own price costs that; the others cost the site's gift price.
      let giftCredits: number | null = null;
      if (content.kind === 'gift') {
        const [gift] = await db.select({ id: gifts.id, credits: gifts.credits }).from(gifts).where(and(eq(gifts.id, content.giftId), eq(gifts.active, true)));
        if (!gift) throw new AppError(404, 'gift_not_found');
        giftCredits = gift.credits;
      }
      const price = giftCredits ?? chatCosts(site, checks.sender_country)[PRICE[content.kind]];
      const filtered = content.kind === 'text' && matchesWordFilter(text, checks.word_filter ?? []);
      const photo = content.kind === 'photo' ? await deps.photos.store(content.photo) : null;
      const send = async (q: Db | Tx, cost: number) => {
        const now = clock();
        const answeredBy = answering?.staffId ?? null;
        const row = await sendStatement(q, { senderId, recipientId, content, text, filtered, cost, idempotencyKey, answeredBy, photo, now });
        if (!row) throw new AppError(402, 'insufficient_credits', { needed: cost });
        const message: MessageRow = {
          id: Number(row.id), conversationId: Number(row.conversation_id), senderId, kind: content.kind, body: text,
          giftId: content.kind === 'gift' ? content.giftId : null, chatPhotoId: row.chat_photo_id === null ? null : Number(row.chat_photo_id),
          filtered, removedAt: null, creditsSpent: cost, idempotencyKey, answeredBy, createdAt: now,
        };
        return { row: message, credits: Number(cost > 0 ? row.spent : row.balance), now };
      };
      try {
        // A member who has bought credits and set no spend cap sends in one statement, which is atomic
        // by itself. The free allowance (a lock on the sender and counting) and a spend cap (checked after
        // the charge is booked) need a transaction around it.
        const result = answering
          // A fictional profile's answer costs nothing; it and its audit row are one transaction.
          ? await db.transaction(async (tx) => {
            const sent = await send(tx, 0);
            await answering.record(tx, sent.row.id);
            return sent;
          })
          : paid && !checks.capped
          ? await send(db, filtered ? 0 : price)
          : await db.transaction(async (tx) => {
            const free = content.kind === 'text' && !paid && (await useFreeMessage(tx, senderId, recipientId, site.freeMessages));
            const cost = free || filtered ? 0 : price;
            const sent = await send(tx, cost);
            if (cost > 0 && checks.capped) await assertWithinSpendCap(tx, senderId, cost, sent.now, { booked: true });
            return sent;
          });
        const message = await messageOut(result.row, senderId);
        if (!filtered) {
          deps.events.emit('message.sent', { messageId: message.id, conversationId: message.conversation_id, senderId, recipientId, kind: content.kind, text });
        } else {
          // The sender's other tabs show it too; the recipient learns nothing.
          await deps.live.publish(senderId, { type: 'message', conversation_id: message.conversation_id, profile_id: recipientId });
        }
        return { message, credits: result.credits, duplicate: false, ...(await freeMessagesLeft()) };
      } catch (error) {
        if (photo) await deps.photos.removeFiles(photo);
        // The same key sent twice at once: the unique index let one through; answer with that one.
        if (isUniqueViolation(error)) {
          const first = await existingSend(senderId, idempotencyKey, recipientId, content);
          if (first) return { message: await messageOut(first, senderId), credits: await balance(senderId), duplicate: true, ...(await freeMessagesLeft()) };
        }
        throw error;
      }
    },

    /** Free messages a member who has not bought credits yet still has on their site (0 for paying members). */
    async freeMessagesLeft(actor: Actor): Promise<number> {
      const { userId, siteId } = requireMember(actor);
      const [[u], site] = await Promise.all([db.select({ paid: users.paidUser }).from(users).where(eq(users.id, userId)), deps.site(siteId)]);
      if (!u) return 0;
      return freeLeft(userId, u.paid, site);
    },
  };
}
