import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { requireMember, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { paymentMandates } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError } from '../infra/errors.ts';
import type { PaymentProviders, SiteProvider } from './providers.ts';
import { atProvider } from './orders.ts';

type MandateRow = typeof paymentMandates.$inferSelect;

/** A stored mandate as the member sees it: masked details only. */
function toMandate(row: MandateRow) {
  return { id: row.id, method: row.method, details: row.details, status: row.status, created_at: row.createdAt.toISOString() };
}

/** The mandates a paid first payment leaves at the provider, which one-click repeat orders are charged on. */
export function createMandates(deps: { db: Db; clock: Clock; providers: PaymentProviders }) {
  const { db, clock, providers } = deps;
  return {
    /** Stores (or refreshes) the mandate a paid first payment created, with masked details only. */
    async store(userId: number, sp: SiteProvider, customerId: string, mandateId: string) {
      const mandate = await sp.provider.getMandate(customerId, mandateId).catch(() => null);
      if (!mandate) return;
      await db.insert(paymentMandates).values({
        userId, provider: sp.provider.name, accountId: sp.accountId, customerId, mandateId,
        method: mandate.method, details: mandate.details, status: mandate.status, createdAt: clock(), updatedAt: clock(),
      }).onConflictDoUpdate({
        target: [paymentMandates.provider, paymentMandates.mandateId],
        set: { status: sql`case when ${paymentMandates.status} = 'revoked' then 'revoked' else excluded.status end`, updatedAt: clock() },
      });
    },

    /** The member's mandate, to charge a repeat order on (404 when it is not theirs or revoked). */
    async owned(userId: number, id: number): Promise<MandateRow> {
      const [mandate] = await db.select().from(paymentMandates).where(and(eq(paymentMandates.id, id), eq(paymentMandates.userId, userId)));
      if (!mandate || mandate.status === 'revoked') throw new AppError(404, 'mandate_not_found');
      return mandate;
    },

    /** The provider's word on a mandate that is no longer valid, kept here. */
    async markInvalid(id: number, status: MandateRow['status'] | undefined) {
      await db.update(paymentMandates).set({ status: status ?? 'invalid', updatedAt: clock() }).where(eq(paymentMandates.id, id));
    },

    /** The member's stored mandates that can still be charged or are being set up. */
    async mandates(actor: Actor) {
      const { userId } = requireMember(actor);
      const rows = await db.select().from(paymentMandates)
        .where(and(eq(paymentMandates.userId, userId), inArray(paymentMandates.status, ['valid', 'pending'])))
        .orderBy(desc(paymentMandates.id));
      return rows.map(toMandate);
    },

    /** Whether the member can repeat an order in one click (the navigation links there then). */
    async hasRepeatOrder(actor: Actor): Promise<boolean> {
      const { userId } = requireMember(actor);
      return (await db.$count(paymentMandates, and(eq(paymentMandates.userId, userId), eq(paymentMandates.status, 'valid')))) > 0;
    },

    /** Cancels a stored mandate: revoked at the provider first, then here. */
    async revokeMandate(actor: Actor, id: number): Promise<void> {
      const { userId } = requireMember(actor);
      const [mandate] = await db.select().from(paymentMandates).where(and(eq(paymentMandates.id, id), eq(paymentMandates.userId, userId)));
      if (!mandate || mandate.status === 'revoked') throw new AppError(404, 'mandate_not_found');
      const sp = await providers.forAccount(mandate.accountId);
      await atProvider(() => sp.provider.revokeMandate(mandate.customerId, mandate.mandateId));
      await db.update(paymentMandates).set({ status: 'revoked', updatedAt: clock() }).where(eq(paymentMandates.id, mandate.id));
    },
  };
}

export type Mandates = ReturnType<typeof createMandates>;
