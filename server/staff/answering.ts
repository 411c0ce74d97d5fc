import { eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ATTRIBUTE_KEYS } from '#common/profile.ts';
import { can, requireStaffRoleSomewhere, type Actor, type StaffActor } from '../actor.ts';
import { rowsOf, type Db, type Tx } from '../db/client.ts';
import { conversations, fictionalAnswerClaims, fictionalNotes, messages, profiles, sites, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { CLAIM_MS, queuePage, type From, type QueuePage } from '../moderation/queue-shared.ts';
import type { StaffAnswer, SendInput } from '../chat/chat-send.ts';
import type { ProfilesService } from '../profiles/profiles.service.ts';
import type { AuditLog } from './audit.ts';

const DAY_MS = 86_400_000;
/** The longest period the response-time figures cover. */
const MAX_DAYS = 5 * 366;
/** The messages of an opened conversation shown to the answering staff member (the newest ones). */
const SHOWN_MESSAGES = 50;

/** One conversation with a fictional profile whose member wrote last, waiting since their first unanswered message. */
export interface WaitingConversation {
  conversation_id: number;
  site_id: number;
  fictional_id: number;
  fictional_name: string;
  member_id: number;
  member_name: string;
  waiting_since: string;
  claimed_by: number | null;
  claimed_until: string | null;
}

/** Response times of one site's fictional profiles over a period, in seconds (null when nothing was answered). */
export interface ResponseFigures {
  site_id: number;
  site_name: string;
  answered: number;
  median_seconds: number | null;
  p90_seconds: number | null;
  /** Members' messages of the period that no answer followed yet. */
  waiting: number;
}

const day = z.iso.date().optional();
export const figuresQuerySchema = z.object({ from: day, to: day });
const answerSchema = z.object({ text: z.string().trim().min(1).max(10_000), idempotencyKey: z.string().min(16).max(100) });

/** Staff who answer for fictional profiles: `support` (or `admin`) of at least one site, or 403. */
const answeringStaff = (actor: Actor): StaffActor => requireStaffRoleSomewhere(actor, 'support');

/** The sites whose fictional profiles the staff member answers for: a condition on `column`. */
const inSites = (staff: StaffActor, column: SQL): SQL =>
  staff.siteIds === null ? sql`true` : sql`${column} in (${sql.join(staff.siteIds.map((id) => sql`${id}::int`), sql`, `)})`;

/**
 * Answering as a fictional profile (issue 27): the conversations that wait for an answer, oldest first, within the
 * staff member's sites; a conversation is claimed for ten minutes before it is answered, as the moderation queues'
 * items are, so two staff members never answer the same one. The answer is sent as the fictional profile through
 * the members' chat use case (the member gets it live) and carries the staff member's id, which no member's answer
 * shows; it and its audit row are one transaction.
 */
export function createAnswering(deps: {
  db: Db; clock: Clock; audit: AuditLog;
  chat: { send(actor: Actor, input: SendInput, answering?: StaffAnswer): Promise<{ message: { id: number }; duplicate: boolean }> };
  profiles: Pick<ProfilesService, 'detail'>;
}) {
  const { db, clock, audit } = deps;

  /** The fictional side, the member side and the site of a conversation with a fictional profile, or 404. */
  async function conversationOf(staff: StaffActor, conversationId: number) {
    const [row] = rowsOf<{ fictional_id: number; member_id: number; site_id: number }>(await db.execute(sql`
      select f.user_id as fictional_id, case when c.user_low = f.user_id then c.user_high else c.user_low end as member_id, fu.site_id
      from ${conversations} c
      join ${profiles} f on f.fictional and f.user_id in (c.user_low, c.user_high)
      join ${users} fu on fu.id = f.user_id
      where c.id = ${conversationId}
      order by f.user_id limit 1`));
    if (!row) throw notFound();
    if (!can(staff, 'support', row.site_id)) throw new AppError(403, 'forbidden');
    return { fictionalId: Number(row.fictional_id), memberId: Number(row.member_id), siteId: Number(row.site_id) };
  }

  /** Whether the staff member holds the conversation now; `lock` holds the claim's row for the rest of the transaction. */
  async function holds(q: Db | Tx, staff: StaffActor, conversationId: number, lock = false) {
    const query = q.select({ staffId: fictionalAnswerClaims.staffId, until: fictionalAnswerClaims.until }).from(fictionalAnswerClaims)
      .where(eq(fictionalAnswerClaims.conversationId, conversationId));
    const [claim] = lock ? await query.for('update') : await query;
    return claim !== undefined && claim.staffId === staff.staffId && claim.until > clock();
  }

  return {
    /** The conversations waiting for an answer, oldest first, 50 a page. */
    async queue(actor: Actor, page?: number): Promise<QueuePage<WaitingConversation>> {
      const staff = answeringStaff(actor);
      const now = clock();
      return queuePage(page, async (limit, offset) => rowsOf<Record<string, unknown>>(await db.execute(sql`
        select c.id as conversation_id, fu.site_id, f.user_id as fictional_id, f.name as fictional_name, mu.id as member_id, mp.name as member_name,
          w.waiting_since, cl.staff_id as claimed_by, cl.until as claimed_until
        from ${conversations} c
        join ${profiles} f on f.fictional and f.user_id in (c.user_low, c.user_high)
        join ${users} fu on fu.id = f.user_id
        join ${users} mu on mu.id = case when c.user_low = f.user_id then c.user_high else c.user_low end
        join ${profiles} mp on mp.user_id = mu.id and not mp.fictional
        cross join lateral (
          select min(m.created_at) as waiting_since from ${messages} m
          where m.conversation_id = c.id and m.sender_id = mu.id and m.removed_at is null
            and m.id > coalesce((select max(a.id) from ${messages} a where a.conversation_id = c.id and a.sender_id = f.user_id), 0)
        ) w
        left join ${fictionalAnswerClaims} cl on cl.conversation_id = c.id and cl.until > ${now.toISOString()}::timestamptz
        where w.waiting_since is not null and mu.status <> 'deleted' and ${inSites(staff, sql`fu.site_id`)}
        order by w.waiting_since, c.id
        limit ${limit} offset ${offset}`)).map((r) => ({
        conversation_id: Number(r.conversation_id), site_id: Number(r.site_id), fictional_id: Number(r.fictional_id), fictional_name: String(r.fictional_name),
        member_id: Number(r.member_id), member_name: String(r.member_name), waiting_since: new Date(r.waiting_since as string).toISOString(),
        claimed_by: r.claimed_by === null ? null : Number(r.claimed_by),
        claimed_until: r.claimed_until === null ? null : new Date(r.claimed_until as string).toISOString(),
      })));
    },

    /** Holds the conversation for ten minutes (renewed by its holder); 409 while another staff member holds it. */
    async claim(actor: Actor, conversationId: number, from: From = {}): Promise<{ claimed_until: string }> {
      const staff = answeringStaff(actor);
      const { memberId } = await conversationOf(staff, conversationId);
      const now = clock();
      const until = new Date(now.getTime() + CLAIM_MS);
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(fictionalAnswerClaims).values({ conversationId, staffId: staff.staffId, until })
          .onConflictDoUpdate({
            target: fictionalAnswerClaims.conversationId, set: { staffId: staff.staffId, until },
            setWhere: sql`${fictionalAnswerClaims.until} < ${now.toISOString()}::timestamptz or ${fictionalAnswerClaims.staffId} = ${staff.staffId}`,
          })
          .returning({ conversationId: fictionalAnswerClaims.conversationId });
        if (!row) throw new AppError(409, 'answer_claimed');
        await audit.record(tx, {
          actor: staff, role: 'support', action: 'fictional.claim', objectType: 'conversation', objectId: conversationId, memberId,
          after: { claimed_until: until.toISOString() }, ip: from.ip,
        });
        return { claimed_until: until.toISOString() };
      });
    },

    /**
     * A conversation the staff member holds: the fictional profile (with its notes where the site shows them), the
     * member's profile as the fictional profile sees it and the newest messages. 409 unless they hold it.
     */
    async conversation(actor: Actor, conversationId: number) {
      const staff = answeringStaff(actor);
      const { fictionalId, memberId, siteId } = await conversationOf(staff, conversationId);
      if (!(await holds(db, staff, conversationId))) throw new AppError(409, 'answer_not_claimed');
      const [[fictional], [site], rows, member] = await Promise.all([
        db.select({ profile: profiles, notes: fictionalNotes.notes }).from(profiles)
          .leftJoin(fictionalNotes, eq(fictionalNotes.userId, profiles.userId)).where(eq(profiles.userId, fictionalId)),
        db.select({ name: sites.name, notesShown: sites.visibleProfileNotes }).from(sites).where(eq(sites.id, siteId)),
        db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(sql`${messages.id} desc`).limit(SHOWN_MESSAGES),
        deps.profiles.detail({ kind: 'member', userId: fictionalId, siteId }, memberId, { attributes: true }),
      ]);
      const p = fictional.profile;
      const attributes = Object.fromEntries(ATTRIBUTE_KEYS.flatMap((key) => {
        const column = { hair_color: 'hairColor', eye_color: 'eyeColor', body_type: 'bodyType', relationship_status: 'relationshipStatus', signup_reason: 'signupReason' }[key as string] ?? key;
        const value = (p as Record<string, unknown>)[column];
        return typeof value === 'string' && value ? [[key, value]] : [];
      }));
      return {
        conversation_id: conversationId,
        site: { id: siteId, name: site.name },
        fictional: {
          id: fictionalId, name: p.name, gender: p.gender, birth_date: p.birthDate, country: p.country, region: p.region, about: p.about, attributes,
          notes: site.notesShown ? (fictional.notes ?? '') : null,
        },
        member,
        messages: rows.reverse().map((m) => ({
          id: m.id, from_fictional: m.senderId === fictionalId, kind: m.kind, text: m.body, created_at: m.createdAt.toISOString(),
          answered_by: m.answeredBy, removed: m.removedAt !== null,
        })),
      };
    },

    /**
     * Sends the staff member's answer as the fictional profile. They must hold the conversation (checked again,
     * locked, inside the send's transaction); a retried form (the same key) answers the first send.
     */
    async answer(actor: Actor, conversationId: number, input: { text: string; idempotencyKey: string }, from: From = {}): Promise<{ message_id: number; duplicate: boolean }> {
      const staff = answeringStaff(actor);
      const parsed = answerSchema.safeParse(input);
      if (!parsed.success) throw new AppError(400, parsed.error.issues[0].path[0] === 'text' ? 'message_empty' : 'invalid_input');
      const { fictionalId, memberId, siteId } = await conversationOf(staff, conversationId);
      if (!(await holds(db, staff, conversationId))) throw new AppError(409, 'answer_not_claimed');
      const sent = await deps.chat.send(
        { kind: 'member', userId: fictionalId, siteId },
        { recipientId: memberId, content: { kind: 'text', text: parsed.data.text }, idempotencyKey: parsed.data.idempotencyKey },
        {
          staffId: staff.staffId,
          async record(tx, messageId) {
            if (!(await holds(tx, staff, conversationId, true))) throw new AppError(409, 'answer_not_claimed');
            await audit.record(tx, {
              actor: staff, role: 'support', action: 'fictional.answer', objectType: 'message', objectId: messageId, memberId,
              after: { conversation_id: conversationId, fictional_id: fictionalId, length: parsed.data.text.length }, ip: from.ip,
            });
          },
        },
      );
      return { message_id: sent.message.id, duplicate: sent.duplicate };
    },

    /**
     * Per site the staff member answers for: the median and 90th percentile of the time from a member's first
     * unanswered message to the fictional profile's answer, for answers given in the period (UTC days, inclusive;
     * the last seven days by default), and how many of the period's members' messages wait for one.
     */
    async figures(actor: Actor, query: { from?: string; to?: string } = {}): Promise<{ from: string; to: string; sites: ResponseFigures[] }> {
      const staff = answeringStaff(actor);
      const days = figuresQuerySchema.safeParse(query);
      if (!days.success) throw new AppError(400, 'invalid_period');
      const today = clock().toISOString().slice(0, 10);
      const to = days.data.to ?? today;
      const fromDay = days.data.from ?? new Date(new Date(`${to}T00:00:00Z`).getTime() - 6 * DAY_MS).toISOString().slice(0, 10);
      const start = new Date(`${fromDay}T00:00:00Z`);
      const end = new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS);
      if (end <= start || end.getTime() - start.getTime() > MAX_DAYS * DAY_MS) throw new AppError(400, 'invalid_period');
      const [s, e] = [start.toISOString(), end.toISOString()];
      // A turn is a member's messages and the fictional profile's answer after them: every message belongs to the
      // turn numbered by how many answers came before it, so a turn's answer is its one fictional message.
      const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`
        with fm as (
          select m.conversation_id, fu.site_id, m.created_at, m.sender_id = f.user_id as answer,
            count(*) filter (where m.sender_id = f.user_id) over (partition by m.conversation_id order by m.id rows between unbounded preceding and 1 preceding) as turn
          from ${messages} m
          join ${conversations} c on c.id = m.conversation_id
          join ${profiles} f on f.fictional and f.user_id in (c.user_low, c.user_high)
          join ${users} fu on fu.id = f.user_id
          where (m.sender_id = f.user_id or m.removed_at is null) and ${inSites(staff, sql`fu.site_id`)}
        ), turns as (
          select site_id, min(created_at) filter (where not answer) as asked, min(created_at) filter (where answer) as answered
          from fm group by site_id, conversation_id, turn
        ), times as (
          select site_id, extract(epoch from (answered - asked))::float8 as seconds from turns
          where asked is not null and answered >= ${s}::timestamptz and answered < ${e}::timestamptz
        )
        select st.id as site_id, st.name as site_name,
          (select count(*) from times where times.site_id = st.id) as answered,
          (select percentile_cont(0.5) within group (order by seconds) from times where times.site_id = st.id) as median_seconds,
          (select percentile_cont(0.9) within group (order by seconds) from times where times.site_id = st.id) as p90_seconds,
          (select count(*) from turns t where t.site_id = st.id and t.answered is null and t.asked >= ${s}::timestamptz and t.asked < ${e}::timestamptz) as waiting
        from ${sites} st
        where ${inSites(staff, sql`st.id`)}
        order by st.name, st.id`));
      return {
        from: fromDay, to,
        sites: rows.map((r) => ({
          site_id: Number(r.site_id), site_name: String(r.site_name), answered: Number(r.answered),
          median_seconds: r.median_seconds === null ? null : Number(r.median_seconds), p90_seconds: r.p90_seconds === null ? null : Number(r.p90_seconds),
          waiting: Number(r.waiting),
        })),
      };
    },
  };
}

export type Answering = ReturnType<typeof createAnswering>;

