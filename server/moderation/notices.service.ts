import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, ne, type SQL } from 'drizzle-orm';
import { toId } from '#common/input.ts';
import {
  NOTICE_REFERENCE, NOTICE_REFERENCE_ALPHABET, NOTICE_TOKEN, type NoticeInput, type NoticeOutcome, type NoticeView,
} from '#common/notices.ts';
import type { Db, Tx } from '../db/client.ts';
import { conversationMembers, messages, notices, photos, profiles, users } from '../db/schema.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import type { MailService } from '../notifications/mail.service.ts';
import { meetsSite } from '../accounts/contact-rules.ts';
import { can, type StaffActor } from '../actor.ts';
import type { AuditLog } from '../staff/audit.ts';

/** Who sends a notice: the site it came in on, the signed-in member (if any), the client's address and language. */
export interface NoticeActor {
  siteId: number;
  userId: number | null;
  ip: string;
  lang: string;
}

type NoticeRow = typeof notices.$inferSelect;

/** Three groups of four characters from an alphabet without look-alikes: about 58 bits, easy to read out on the phone. */
export function newReference(): string {
  const group = () => Array.from({ length: 4 }, () => NOTICE_REFERENCE_ALPHABET[randomInt(NOTICE_REFERENCE_ALPHABET.length)]).join('');
  return `${group()}-${group()}-${group()}`;
}

const contentNotFound = () => new AppError(400, 'notice_content_not_found', {}, { content: 'errors.notice_content_not_found' });

export const followPath = (row: Pick<NoticeRow, 'reference' | 'followToken'>) => `/complaints/${row.reference}?token=${row.followToken}`;

function view(row: NoticeRow): NoticeView {
  return {
    reference: row.reference, kind: row.kind, content: row.contentRef, reason: row.reason, status: row.status,
    decision: row.decision, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
  };
}

/**
 * A notice's outcome, once, inside the caller's transaction (a moderator's decision writes its restriction and statement
 * in the same one): the status, the text the notifier reads on the follow page, and the mail to them. Undefined when
 * the notice was decided already. `also` narrows which row may be decided (the moderator's claim).
 */
export async function decideNoticeInTx(
  tx: Tx, events: EventBus, now: Date, noticeId: number, outcome: NoticeOutcome, text: string, also?: SQL,
): Promise<NoticeRow | undefined> {
  const [done] = await tx.update(notices).set({ status: outcome, decision: text, decidedAt: now, updatedAt: now, claimedUntil: null })
    .where(and(eq(notices.id, noticeId), inArray(notices.status, ['received', 'in_review']), also)).returning();
  if (done) await events.record(tx, 'notice.decided', { noticeId: done.id });
  return done;
}

/**
 * Notice and action (EU Digital Services Act, Art. 16): anyone may report a profile, a photo, a
 * message or other content; the reporter gets a reference by mail and follows the outcome on a page
 * that only the mailed link opens. The operator moves a notice to review and decides it; the outcome
 * is mailed. Mails go through the outbox, so a crash after the notice is stored loses none.
 */
export function createNoticesService(deps: {
  db: Db; clock: Clock; events: EventBus; mail: MailService; audit: AuditLog;
  limits: { noticesPerIp: RateLimiter; noticesPerReporter: RateLimiter };
}) {
  const { db, clock, events, mail, limits } = deps;

  /**
   * The reported thing exists on this site: a member (or their photo) of this site or of a site it shares its members
   * with (decision 051), whom the reporter can see; a message one from the reporter's own conversations.
   */
  async function checkContent(actor: NoticeActor, kind: NoticeInput['kind'], content: string): Promise<void> {
    if (kind === 'other') return;
    const id = toId(content);
    if (id === null) throw contentNotFound();
    if (kind === 'profile') {
      const [row] = await db.select({ id: users.id }).from(users).innerJoin(profiles, eq(profiles.userId, users.id))
        .where(and(eq(users.id, id), meetsSite(actor.siteId, users.siteId), ne(users.status, 'deleted')));
      if (!row) throw contentNotFound();
    } else if (kind === 'photo') {
      const [row] = await db.select({ id: photos.id }).from(photos).innerJoin(users, eq(users.id, photos.userId))
        .where(and(eq(photos.id, id), meetsSite(actor.siteId, users.siteId), ne(users.status, 'deleted')));
      if (!row) throw contentNotFound();
    } else {
      // Only the two members of a conversation have read its messages: nobody else can report one.
      if (!actor.userId) throw new AppError(400, 'notice_message_login', {}, { content: 'errors.notice_message_login' });
      const [row] = await db.select({ id: messages.id }).from(messages)
        .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, messages.conversationId), eq(conversationMembers.userId, actor.userId)))
        .where(eq(messages.id, id));
      if (!row) throw contentNotFound();
    }
  }

  async function load(reference: string): Promise<NoticeRow> {
    if (!NOTICE_REFERENCE.test(reference)) throw notFound();
    const [row] = await db.select().from(notices).where(eq(notices.reference, reference));
    if (!row) throw notFound();
    return row;
  }

  /** The reference on arrival; after the decision, the outcome (mail.notice_removed or mail.notice_no_action). */
  async function mailReporter(noticeId: number, what: 'received' | 'decided') {
    const [row] = await db.select().from(notices).where(eq(notices.id, noticeId));
    if (!row || (what === 'decided' && row.status !== 'removed' && row.status !== 'no_action')) return;
    const kind = what === 'received' ? 'notice_received' : `notice_${row.status}`;
    await mail.send({
      to: row.reporterEmail, lang: row.language, siteId: row.siteId, kind, link: followPath(row),
      // The reporter's name and address were typed by whoever sent the notice: the reference is enough.
      params: what === 'received' ? { reference: row.reference } : { reference: row.reference, decision: row.decision ?? '' },
    });
  }

  return {
    /**
     * Stores a notice and queues the mail with its reference. A signed-in member reports under their
     * own account's address. Limits count before the content is looked up, so ids cannot be probed.
     */
    async submit(actor: NoticeActor, input: NoticeInput): Promise<{ reference: string; email: string }> {
      let email = input.email;
      if (actor.userId) {
        const [member] = await db.select({ email: users.email }).from(users).where(and(eq(users.id, actor.userId), eq(users.siteId, actor.siteId)));
        if (!member) throw new AppError(403, 'authentication_required');
        email = member.email;
      }
      for (const [limiter, key] of [[limits.noticesPerIp, actor.ip], [limits.noticesPerReporter, actor.userId ? `member:${actor.userId}` : `email:${email}`]] as const) {
        const wait = await limiter.hit(key);
        if (wait > 0) throw new AppError(429, 'too_many_requests', { count: Math.ceil(wait / 60) });
      }
      await checkContent(actor, input.kind, input.content);
      const now = clock();
      for (let attempt = 0; ; attempt++) {
        const values = {
          siteId: actor.siteId, reference: newReference(), followToken: randomBytes(32).toString('base64url'),
          kind: input.kind, contentRef: input.kind === 'other' ? input.content : String(toId(input.content)), reason: input.reason,
          explanation: input.explanation, reporterName: input.name, reporterEmail: email, reporterUserId: actor.userId,
          language: actor.lang, bonaFide: input.bona_fide, createdAt: now, updatedAt: now,
        };
        let noticeId: number;
        try {
          noticeId = await db.transaction(async (tx) => {
            const [row] = await tx.insert(notices).values(values).returning({ id: notices.id });
            await events.record(tx, 'notice.received', { noticeId: row.id });
            return row.id;
          });
        } catch (error) {
          // A reference drawn twice (about one in 10^17): draw again.
          if (isUniqueViolation(error) && attempt < 3) continue;
          throw error;
        }
        events.emit('notice.received', { noticeId });
        return { reference: values.reference, email };
      }
    },

    /** The follow page: the notice's status and outcome, for whoever has the mailed link (else "not found"). */
    async follow(siteId: number, reference: string, token: unknown): Promise<NoticeView> {
      if (typeof token !== 'string' || !NOTICE_TOKEN.test(token)) throw notFound();
      const row = await load(reference);
      const given = Buffer.from(token);
      const expected = Buffer.from(row.followToken);
      if (row.siteId !== siteId || given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound();
      return view(row);
    },

    /**
     * A moderator of the notice's site has started looking at it (`npm run notices:decide … in_review`); a notice of
     * a site they do not reach is as unknown as a missing one. Audited in the same transaction.
     */
    async review(actor: StaffActor, reference: string, from: { ip?: string | null } = {}): Promise<NoticeView> {
      const row = await load(reference);
      if (!can(actor, 'moderator', row.siteId)) throw notFound();
      if (row.status !== 'received') throw new AppError(409, 'notice_already_in_review');
      const updated = await db.transaction(async (tx) => {
        const [changed] = await tx.update(notices).set({ status: 'in_review', updatedAt: clock() })
          .where(and(eq(notices.id, row.id), eq(notices.status, 'received'))).returning();
        if (!changed) throw new AppError(409, 'notice_already_in_review');
        await deps.audit.record(tx, {
          actor, role: 'moderator', action: 'notice.review', objectType: 'notice', objectId: row.id, before: { status: 'received' }, after: { status: 'in_review' }, ip: from.ip,
        });
        return changed;
      });
      return view(updated);
    },

    /**
     * A moderator's decision without a restriction of a member (`npm run notices:decide`), once: the status, its text
     * and time, the audit row and a mail to the reporter with the outcome. The console decides through the
     * moderation queue, which claims first and may restrict.
     */
    async decide(actor: StaffActor, reference: string, outcome: NoticeOutcome, decision: string, from: { ip?: string | null } = {}): Promise<NoticeView> {
      const text = decision.trim();
      if (!text) throw new AppError(400, 'notice_decision_required');
      const row = await load(reference);
      if (!can(actor, 'moderator', row.siteId)) throw notFound();
      const now = clock();
      const updated = await db.transaction(async (tx) => {
        const changed = await decideNoticeInTx(tx, events, now, row.id, outcome, text);
        if (!changed) throw new AppError(409, 'notice_already_decided');
        await deps.audit.record(tx, {
          actor, role: 'moderator', action: 'notice.decide', objectType: 'notice', objectId: row.id,
          before: { status: row.status }, after: { status: outcome, decision: text }, ip: from.ip,
        });
        return changed;
      });
      events.emit('notice.decided', { noticeId: updated.id });
      return view(updated);
    },

    /** Durable subscribers (server/subscribers.ts). */
    mailReceived: ({ noticeId }: { noticeId: number }) => mailReporter(noticeId, 'received'),
    mailDecided: ({ noticeId }: { noticeId: number }) => mailReporter(noticeId, 'decided'),
  };
}
