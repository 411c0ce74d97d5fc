import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { GROUND_KEYS } from '#common/reports.ts';
import type { Db, Tx } from '../db/client.ts';
import { profiles, textReviews } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import type { AuditLog } from '../staff/audit.ts';
import { requireRole, type StaffActor } from '../staff/staff-actor.ts';
import { CLAIM_MS, claimable, heldBy, heldNow, queuePage, staffScope, type From, type QueuePage } from './queue-shared.ts';
import type { Statements } from './statements.ts';

export type TextField = 'name' | 'about';

/** The name a removed one gives way to (decision 061): neutral in every language, and the member's own to change. */
export const neutralName = (memberId: number) => `#${memberId}`;

/**
 * Puts a member's new display name or about-me text in the review queue, in the caller's transaction (the text
 * shows at once; the queue is for review). A newer change of the same field replaces the waiting item's text and
 * keeps its place; a change back to the text a moderator last let stand, or an emptied about-me, leaves nothing to
 * review.
 */
export async function queueTextChange(
  tx: Db | Tx, now: Date, change: { siteId: number; memberId: number; field: TextField; before: string | null; after: string },
): Promise<void> {
  const { siteId, memberId, field, before, after } = change;
  if (before === after) return;
  const [waiting] = await tx.select().from(textReviews)
    .where(and(eq(textReviews.memberId, memberId), eq(textReviews.field, field), eq(textReviews.status, 'open'))).for('update');
  if (waiting) {
    if (after === (waiting.oldText ?? null) || !after.trim()) {
      await tx.delete(textReviews).where(eq(textReviews.id, waiting.id));
      return;
    }
    // A moderator who held the older text must look again: the hold ends with the text it was for.
    await tx.update(textReviews).set({ newText: after, claimedBy: null, claimedUntil: null, updatedAt: now }).where(eq(textReviews.id, waiting.id));
    return;
  }
  if (!after.trim()) return;
  await tx.insert(textReviews).values({ siteId, memberId, field, oldText: before, newText: after, createdAt: now, updatedAt: now });
}

export interface QueueText {
  id: number;
  site_id: number;
  member_id: number;
  field: TextField;
  old_text: string | null;
  new_text: string;
  created_at: string;
  updated_at: string;
  claimed_by: number | null;
  claimed_until: string | null;
}

const decideTextInput = z.object({
  action: z.enum(['approve', 'remove']),
  ground: z.enum(GROUND_KEYS).default('terms_general'),
  facts: z.string().trim().max(3000).default(''),
});
export type DecideTextInput = z.input<typeof decideTextInput>;

/**
 * The names and about-me texts queue (decision 061): oldest first within the moderator's sites, claimed for ten
 * minutes, approved (the text stands) or removed (a name becomes a neutral one, an about-me text empty) with a
 * statement of reasons the member may appeal; the audit row in the same transaction.
 */
export function createTextReviews(deps: { db: Db; clock: Clock; events: EventBus; audit: AuditLog; statements: Statements }) {
  const { db, clock, events, audit, statements } = deps;

  async function load(actor: StaffActor, id: number) {
    const [row] = await db.select().from(textReviews).where(eq(textReviews.id, id));
    if (!row) throw notFound();
    requireRole(actor, 'moderator', row.siteId);
    if (row.status !== 'open') throw new AppError(409, 'text_already_decided');
    return row;
  }

  return {
    /** Waiting names and texts within the moderator's sites, oldest first, a page at a time. */
    async textQueue(actor: StaffActor, page?: number): Promise<QueuePage<QueueText> & { counts: { open: number } }> {
      const where = and(eq(textReviews.status, 'open'), staffScope(actor, textReviews.siteId));
      const now = clock();
      const rows = await queuePage(page, (limit, offset) =>
        db.select().from(textReviews).where(where).orderBy(asc(textReviews.createdAt), asc(textReviews.id)).limit(limit).offset(offset)
          .then((rows) => rows.map((r) => ({
            id: r.id, site_id: r.siteId, member_id: r.memberId, field: r.field, old_text: r.oldText, new_text: r.newText,
            created_at: r.createdAt.toISOString(), updated_at: r.updatedAt.toISOString(), ...heldNow(r, now),
          }))));
      return { ...rows, counts: { open: await db.$count(textReviews, where) } };
    },

    /** Opens a waiting text for its moderator for ten minutes; another moderator's live hold answers 409. */
    async claimText(actor: StaffActor, id: number, from: From = {}): Promise<{ claimed_until: string }> {
      const item = await load(actor, id);
      const now = clock();
      const until = new Date(now.getTime() + CLAIM_MS);
      return db.transaction(async (tx) => {
        const [row] = await tx.update(textReviews).set({ claimedBy: actor.staffId, claimedUntil: until })
          .where(and(eq(textReviews.id, id), eq(textReviews.status, 'open'), claimable(textReviews.claimedBy, textReviews.claimedUntil, actor, now)))
          .returning({ id: textReviews.id });
        if (!row) throw new AppError(409, 'item_claimed');
        await audit.record(tx, {
          actor, role: 'moderator', action: 'text.claim', objectType: 'text_review', objectId: id, memberId: item.memberId,
          after: { claimed_until: until.toISOString() }, ip: from.ip,
        });
        return { claimed_until: until.toISOString() };
      });
    },

    /**
     * Decides a claimed text: approved, or removed while it is still the member's text (a name becomes the neutral
     * one, an about-me text empty) with a statement of reasons that keeps the text for an appeal. One transaction.
     */
    async decideText(actor: StaffActor, id: number, input: DecideTextInput, from: From = {}): Promise<{ status: 'approved' | 'removed'; decision_id: number | null }> {
      const parsed = decideTextInput.safeParse(input);
      if (!parsed.success) throw new AppError(400, 'invalid_input');
      const { action, ground, facts } = parsed.data;
      const item = await load(actor, id);
      const now = clock();
      const status = action === 'approve' ? 'approved' as const : 'removed' as const;
      const decisionId = await db.transaction(async (tx) => {
        const [row] = await tx.update(textReviews).set({ status, decidedBy: actor.staffId, decidedAt: now, claimedUntil: null, updatedAt: now })
          .where(and(
            eq(textReviews.id, id), eq(textReviews.status, 'open'), eq(textReviews.newText, item.newText),
            heldBy(textReviews.claimedBy, textReviews.claimedUntil, actor, now),
          ))
          .returning({ id: textReviews.id });
        if (!row) throw new AppError(409, 'text_not_claimed');
        let decision: number | null = null;
        if (action === 'remove') {
          const column = item.field === 'name' ? profiles.name : profiles.about;
          const replacement = item.field === 'name' ? neutralName(item.memberId) : '';
          // The queued text is still the member's: a newer one would have replaced the item (and ended the hold).
          const [changed] = await tx.update(profiles).set(item.field === 'name' ? { name: replacement } : { about: replacement })
            .where(and(eq(profiles.userId, item.memberId), eq(column, item.newText))).returning({ id: profiles.userId });
          if (!changed) throw new AppError(409, 'text_not_claimed');
          decision = await statements.issue(tx, {
            memberId: item.memberId, restriction: 'text_removed', content: { kind: item.field }, facts, ground, automated: false,
            staffId: actor.staffId, removed: item.field === 'name' ? { name: item.newText } : { about: item.newText },
          });
        }
        await audit.record(tx, {
          actor, role: 'moderator', action: 'text.decide', objectType: 'text_review', objectId: id, memberId: item.memberId,
          before: { status: 'open', field: item.field, text: item.newText }, after: { status, ground: action === 'remove' ? ground : null, decision_id: decision }, ip: from.ip,
        });
        return decision;
      });
      if (decisionId) events.emit('statement.issued', { decisionId });
      return { status, decision_id: decisionId };
    },
  };
}

export type TextReviews = ReturnType<typeof createTextReviews>;
