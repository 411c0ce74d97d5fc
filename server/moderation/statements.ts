import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import {
  APPEAL_WINDOW_DAYS, GROUNDS, STATEMENT_TOKEN, appealSchema, type Ground, type Restriction, type StatementView,
} from '#common/reports.ts';
import type { Actor } from '../actor.ts';
import type { Db, Tx } from '../db/client.ts';
import { appeals, moderationDecisions, users } from '../db/schema.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import type { MailService } from '../notifications/mail.service.ts';

type DecisionRow = typeof moderationDecisions.$inferSelect;
type AppealRow = typeof appeals.$inferSelect;

/** What a restricting decision writes down (DSA Art. 17(3)); the member and their site come from `memberId`. */
export interface StatementInput {
  memberId: number;
  restriction: Restriction;
  content: { kind: DecisionRow['contentKind']; id?: number | null };
  suspendedUntil?: Date | null;
  facts: string;
  ground: Ground;
  automated: boolean;
  reportId?: number | null;
  noticeId?: number | null;
  /** The deciding staff member; null for the command line or an automatic decision. */
  staffId: number | null;
  removed?: DecisionRow['removed'];
}

const DAY_MS = 86_400_000;
export const appealDeadline = (row: Pick<DecisionRow, 'createdAt'>) => new Date(row.createdAt.getTime() + APPEAL_WINDOW_DAYS * DAY_MS);
export const statementPath = (row: Pick<DecisionRow, 'id' | 'token'>) => `/statements/${row.id}?token=${row.token}`;

/** The staff member behind an actor, when it names one (a console session or token); else null. */
export function deciderOf(actor: Actor | { kind: string }): number | null {
  return 'staffId' in actor && typeof actor.staffId === 'number' ? actor.staffId : null;
}

/**
 * Statements of reasons (DSA Art. 17) and the member's side of appeals (Art. 20): every restricting decision writes
 * one with `issue(tx, …)` inside the transaction of the restriction, so no restriction exists without its statement;
 * the member reads it signed in or through the mailed link, and may appeal once within the window.
 */
export function createStatements(deps: { db: Db; clock: Clock; events: EventBus; mail: MailService }) {
  const { db, clock, events, mail } = deps;

  function toView(row: DecisionRow, appeal: AppealRow | undefined): StatementView {
    const until = appealDeadline(row);
    return {
      id: row.id, restriction: row.restriction, content: { kind: row.contentKind, id: row.contentId },
      suspended_until: row.suspendedUntil?.toISOString() ?? null, facts: row.facts, ground: row.ground as Ground,
      basis: GROUNDS[row.ground as Ground] ?? 'terms', automated: row.automated,
      source: row.reportId ? 'report' : row.noticeId ? 'notice' : 'own_initiative',
      status: row.status, created_at: row.createdAt.toISOString(), appeal_until: until.toISOString(),
      appeal: appeal
        ? { status: appeal.status, outcome: appeal.outcome, text: appeal.text, created_at: appeal.createdAt.toISOString(), decided_at: appeal.decidedAt?.toISOString() ?? null }
        : null,
      can_appeal: !appeal && row.status === 'in_force' && clock() < until,
    };
  }

  /**
   * The decision, for the member it concerns (signed in on its site) or for whoever holds the mailed link's token;
   * anyone else gets "not found", so a statement's existence is not told.
   */
  async function opened(actor: Actor, id: number, token: unknown): Promise<DecisionRow> {
    const [row] = await db.select().from(moderationDecisions).where(eq(moderationDecisions.id, id));
    if (!row) throw notFound();
    const own = actor.kind === 'member' && actor.userId === row.memberId && actor.siteId === row.siteId;
    if (own) return row;
    if (typeof token !== 'string' || !STATEMENT_TOKEN.test(token)) throw notFound();
    const given = Buffer.from(token);
    const expected = Buffer.from(row.token);
    const siteId = actor.kind === 'member' || actor.kind === 'visitor' ? actor.siteId : null;
    if (siteId !== row.siteId || given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound();
    return row;
  }

  async function appealOf(decisionId: number) {
    const [row] = await db.select().from(appeals).where(eq(appeals.decisionId, decisionId));
    return row;
  }

  return {
    /** Writes the statement in the caller's transaction and queues its mail; returns the decision's id. */
    async issue(tx: Tx, input: StatementInput): Promise<number> {
      const [member] = await tx.select({ siteId: users.siteId }).from(users).where(eq(users.id, input.memberId));
      if (!member) throw notFound();
      const [row] = await tx.insert(moderationDecisions).values({
        siteId: member.siteId, memberId: input.memberId, token: randomBytes(32).toString('base64url'), restriction: input.restriction,
        contentKind: input.content.kind, contentId: input.content.id ?? null, suspendedUntil: input.suspendedUntil ?? null,
        facts: input.facts.trim().slice(0, 3000), ground: input.ground, automated: input.automated, reportId: input.reportId ?? null,
        noticeId: input.noticeId ?? null, staffId: input.staffId, removed: input.removed ?? null, createdAt: clock(),
      }).returning({ id: moderationDecisions.id });
      await events.record(tx, 'statement.issued', { decisionId: row.id });
      return row.id;
    },

    async view(actor: Actor, id: number, token?: unknown): Promise<StatementView> {
      const row = await opened(actor, id, token);
      return toView(row, await appealOf(row.id));
    },

    /** The member's appeal: once per decision, while it is in force and within the window. */
    async appeal(actor: Actor, id: number, token: unknown, input: unknown): Promise<StatementView> {
      const row = await opened(actor, id, token);
      const parsed = appealSchema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(400, issue.message.replace(/^errors\./, ''), {}, { text: issue.message });
      }
      if (row.status !== 'in_force') throw new AppError(409, 'appeal_not_needed');
      if (clock() >= appealDeadline(row)) throw new AppError(409, 'appeal_too_late');
      try {
        await db.insert(appeals).values({ decisionId: row.id, memberId: row.memberId, text: parsed.data.text, createdAt: clock() });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(409, 'appeal_already_made');
        throw error;
      }
      return toView(row, await appealOf(row.id));
    },

    /** Durable subscriber: the statement, in the member's language, with the link to its page. */
    async mailIssued({ decisionId }: { decisionId: number }) {
      const [row] = await db.select({ decision: moderationDecisions, email: users.email, lang: users.language })
        .from(moderationDecisions).innerJoin(users, eq(users.id, moderationDecisions.memberId)).where(eq(moderationDecisions.id, decisionId));
      if (!row) return;
      await mail.send({ to: row.email, lang: row.lang, siteId: row.decision.siteId, kind: 'statement_issued', link: statementPath(row.decision) });
    },

    /** Durable subscriber: the appeal's outcome, the same way. */
    async mailAppealDecided({ appealId }: { appealId: number }) {
      const [row] = await db.select({ decision: moderationDecisions, outcome: appeals.outcome, email: users.email, lang: users.language })
        .from(appeals).innerJoin(moderationDecisions, eq(moderationDecisions.id, appeals.decisionId))
        .innerJoin(users, eq(users.id, appeals.memberId))
        .where(and(eq(appeals.id, appealId), eq(appeals.status, 'decided')));
      if (!row?.outcome) return;
      await mail.send({ to: row.email, lang: row.lang, siteId: row.decision.siteId, kind: `appeal_${row.outcome}`, link: statementPath(row.decision) });
    },
  };
}

export type Statements = ReturnType<typeof createStatements>;
