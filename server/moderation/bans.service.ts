import { and, eq, inArray, ne, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { MODERATORS, requireStaff, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { conversations, creditLedger, memberBans, messages, profiles, sessions, users, type BanReason, type LedgerReason } from '../db/schema.ts';
import { addCredits } from '../credits/ledger.ts';
import type { Clock } from '../infra/clock.ts';
import { notFound } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';

/** A fake profile or a scammer took members' credits under false pretences: those credits come back. */
const REFUNDED: readonly BanReason[] = ['fake', 'scammer'];
/** The spends on a contact: messages, gifts and photos sent to them. */
const CONTACT_SPENDS: LedgerReason[] = ['message', 'gift', 'chat_photo'];

/** Refunds already booked (a second look at the same ledger). */
const refunded = alias(creditLedger, 'refunded');

export interface BanResult {
  /** Per member who had spent credits on the banned one: how many came back. */
  refunds: { userId: number; credits: number }[];
}

/**
 * Banning a member (the operator console will call this; until then `npm run members:ban`). The profile
 * is disabled (nobody finds or contacts it any more) and its sessions end. For a fake profile or a scammer,
 * every credit another member spent on messages, gifts and photos to it is booked back, each spend once
 * (a `ban_refund` row whose reference is the spend's message), in the same transaction as the ban: banning
 * again, or with another reason, never refunds twice.
 */
export function createBansService(deps: { db: Db; clock: Clock; events: EventBus }) {
  const { db, clock } = deps;
  return {
    async ban(actor: Actor, userId: number, reason: BanReason, noteInput = ''): Promise<BanResult> {
      requireStaff(actor, MODERATORS);
      const note = noteInput.slice(0, 500);
      const refunds = await db.transaction(async (tx) => {
        const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        if (!user) throw notFound();
        await tx.insert(memberBans).values({ userId, reason, note, createdAt: clock() })
          .onConflictDoUpdate({ target: memberBans.userId, set: { reason, note } });
        await tx.update(profiles).set({ status: 'disabled' }).where(eq(profiles.userId, userId));
        await tx.delete(sessions).where(eq(sessions.userId, userId));
        if (!REFUNDED.includes(reason)) return new Map<number, number>();

        const spends = await tx.select({ senderId: messages.senderId, reference: creditLedger.reference, delta: creditLedger.delta })
          .from(creditLedger)
          .innerJoin(messages, and(sql`${creditLedger.reference} = ${messages.id}::text`, eq(messages.senderId, creditLedger.userId)))
          .innerJoin(conversations, eq(conversations.id, messages.conversationId))
          .where(and(
            inArray(creditLedger.reason, CONTACT_SPENDS),
            sql`${creditLedger.delta} < 0`,
            ne(messages.senderId, userId),
            or(eq(conversations.userLow, userId), eq(conversations.userHigh, userId)),
            notExists(tx.select({ one: sql`1` }).from(refunded).where(and(eq(refunded.reason, 'ban_refund'), eq(refunded.reference, creditLedger.reference)))),
          ))
          .orderBy(creditLedger.id);
        const perMember = new Map<number, number>();
        for (const spend of spends) {
          await addCredits(tx, spend.senderId, -spend.delta, 'ban_refund', spend.reference);
          perMember.set(spend.senderId, (perMember.get(spend.senderId) ?? 0) - spend.delta);
        }
        return perMember;
      });
      for (const memberId of refunds.keys()) deps.events.emit('credits.changed', { userId: memberId });
      return { refunds: [...refunds].map(([id, credits]) => ({ userId: id, credits })) };
    },
  };
}

export type BansService = ReturnType<typeof createBansService>;
