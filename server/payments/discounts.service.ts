import { randomBytes } from 'node:crypto';
import { requireMember, type Actor } from '../actor.ts';
import { and, desc, eq, gt, isNull, lte, or, sql, type AnyColumn } from 'drizzle-orm';
import type { CreditPackage, DiscountCodeRecord, PackagePrice, WelcomeBonusRecord } from '#common/api-types.ts';
import { currencyForCountry, PAYMENT_METHODS } from '#common/constants.ts';
import { discountedCents, TIME_BONUS_CODE, TIME_BONUS_SECONDS, timeBonusSecondsLeft } from '#common/discounts.ts';
import type { Db, Tx } from '../db/client.ts';
import { companies, discountCodes, discountRedemptions, orders, profiles, retentionOffers, sites, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { DeleteReason } from '#common/notifications.ts';
import { AppError } from '../infra/errors.ts';

type CodeRow = typeof discountCodes.$inferSelect;
type Q = Db | Tx;

/** What the rules need to know about the member. */
interface Member { id: number; siteId: number; paidUser: boolean; signupDate: Date; country: string; currency: string }

/** A discount that may apply to this member's order (subject to each bundle's minimum). */
interface Candidate { row: CodeRow; expiresAt: Date | null }

/** The order's once-per-user code is held by another unfinished order of the member (`orderId`). */
export class DiscountHeldError extends AppError {
  constructor(readonly orderId: string) {
    super(409, 'discount_in_use');
  }
}

/** The personal code of the deletion page's retention offer is valid this long. */
export const PERSONAL_OFFER_DAYS = 30;

const percentage = (bp: number) => bp / 100;

/**
 * Discount codes, the welcome code and the welcome time bonus (spec sections 3–5). One rule prices a
 * bundle for a member (`priceFor`), and both the credits page (`quote`) and the order (`priceOrder`) use
 * it, so the price shown is the price charged. The active discount is the time bonus if present, else the
 * code the member brought (link or field), else the site's welcome code; a later one replaces an earlier
 * one only when it takes more off, so entering a code never makes a bundle dearer.
 */
export function createDiscountsService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /** What Member holds of `users` and `profiles` (the currency follows the country: withCurrency). */
  const memberFields = { id: users.id, siteId: users.siteId, paidUser: users.paidUser, signupDate: users.signupDate, country: profiles.country };
  const withCurrency = (m: Omit<Member, 'currency'>): Member => ({ ...m, currency: currencyForCountry(m.country) });

  async function member(q: Q, userId: number): Promise<Member> {
    const [m] = await q.select(memberFields).from(users).innerJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, userId));
    if (!m) throw new AppError(404, 'discount_not_found');
    return withCurrency(m);
  }

  /** A site's own code wins over one for every site with the same name. */
  async function findCode(q: Q, siteId: number, code: string): Promise<CodeRow | null> {
    const [row] = await q.select().from(discountCodes)
      .where(and(eq(discountCodes.code, code), or(eq(discountCodes.siteId, siteId), isNull(discountCodes.siteId))))
      .orderBy(sql`${discountCodes.siteId} nulls last`).limit(1);
    return row ?? null;
  }

  async function redeemed(q: Q, userId: number, codeId: number): Promise<boolean> {
    const [r] = await q.select({ id: discountRedemptions.id }).from(discountRedemptions)
      .where(and(eq(discountRedemptions.userId, userId), eq(discountRedemptions.codeId, codeId))).limit(1);
    return Boolean(r);
  }

  /**
   * The code's rules for this member; throws the refusal a member sees. `used`: whether the member redeemed the code,
   * when the caller read that already.
   */
  async function check(q: Q, m: Member, row: CodeRow, used?: boolean): Promise<Candidate> {
    if (row.userId !== null && row.userId !== m.id) throw new AppError(404, 'discount_not_found');
    if (row.validity === 'once-per-user' && (used ?? (await redeemed(q, m.id, row.id)))) throw new AppError(409, 'discount_already_used');
    const now = clock();
    let expiresAt = row.expiresAt;
    if (row.kind === 'time_bonus') {
      // Only members who never paid, within 14,400 s of signing up (spec sections 4 and 6).
      if (m.paidUser) throw new AppError(409, 'discount_new_members_only');
      if (timeBonusSecondsLeft(m.signupDate, now.getTime()) <= 0) throw new AppError(410, 'discount_expired');
      expiresAt = new Date(m.signupDate.getTime() + TIME_BONUS_SECONDS * 1000);
    }
    // A code whose validity window has not begun is no code yet, to a member.
    if (row.startsAt && row.startsAt > now) throw new AppError(404, 'discount_not_found');
    if (!row.active || (row.expiresAt && row.expiresAt <= now)) throw new AppError(410, 'discount_expired');
    if (row.kind === 'welcome' && m.paidUser) throw new AppError(409, 'discount_new_members_only');
    if (row.country && row.country !== m.country) throw new AppError(422, 'discount_wrong_country');
    // Minimums name the currencies a code is for; members pay in their country's currency.
    if (Object.keys(row.minimums).length > 0 && row.minimums[m.currency] === undefined) throw new AppError(422, 'discount_wrong_country');
    return { row, expiresAt };
  }

  /** A code's check when it may not apply: a refusal is no candidate. */
  const optional = (work: Promise<Candidate>) => work.catch((e: unknown) => {
    if (e instanceof AppError) return null;
    throw e;
  });

  /** The time bonus code of the site `siteId` names (a site's own wins over one for every site). */
  const timeBonusCode = (q: Q, siteId: number | AnyColumn) => q.select().from(discountCodes)
    .where(and(eq(discountCodes.kind, 'time_bonus'), or(eq(discountCodes.siteId, siteId), isNull(discountCodes.siteId))))
    .orderBy(sql`${discountCodes.siteId} nulls last`).limit(1);

  /** The time bonus, when the member may have it. */
  async function findTimeBonus(q: Q, m: Member): Promise<Candidate | null> {
    if (m.paidUser) return null;
    const [row] = await timeBonusCode(q, m.siteId);
    return row ? optional(check(q, m, row)) : null;
  }

  // The bonus banner's statement (memberWithTimeBonus), prepared once.
  const code = timeBonusCode(db, users.siteId).as('code');
  const memberWithTimeBonusQuery = db.select({
    ...memberFields,
    code: {
      id: code.id, siteId: code.siteId, code: code.code, kind: code.kind, percentBp: code.percentBp, minimums: code.minimums,
      country: code.country, validity: code.validity, userId: code.userId, active: code.active, startsAt: code.startsAt,
      expiresAt: code.expiresAt, createdAt: code.createdAt,
    },
    used: sql<boolean>`exists (select 1 from ${discountRedemptions} where ${discountRedemptions.userId} = ${users.id} and ${discountRedemptions.codeId} = ${code.id})`,
  }).from(users).innerJoin(profiles, eq(profiles.userId, users.id)).leftJoinLateral(code, sql`true`)
    .where(eq(users.id, sql.placeholder('userId'))).prepare('member_time_bonus');

  /**
   * The member with their site's time bonus code and whether they redeemed it, in one statement: a new member's every
   * page shows the bonus banner.
   */
  async function memberWithTimeBonus(userId: number): Promise<{ m: Member; bonus: Candidate | null }> {
    const [row] = await memberWithTimeBonusQuery.execute({ userId });
    if (!row) throw new AppError(404, 'discount_not_found');
    const { code: bonus, used, ...facts } = row;
    const m = withCurrency(facts);
    return { m, bonus: bonus && !m.paidUser ? await optional(check(db, m, bonus, used)) : null };
  }

  /** The automatic ones: the time bonus and the site's welcome code, when the member may have them. */
  async function automatic(q: Q, m: Member): Promise<{ timeBonus: Candidate | null; welcome: Candidate | null }> {
    if (m.paidUser) return { timeBonus: null, welcome: null };
    const [welcomeRow] = await q.select().from(discountCodes)
      .where(and(eq(discountCodes.kind, 'welcome'), eq(discountCodes.siteId, m.siteId), eq(discountCodes.active, true),
        or(isNull(discountCodes.startsAt), lte(discountCodes.startsAt, clock())), or(isNull(discountCodes.expiresAt), gt(discountCodes.expiresAt, clock()))))
      .orderBy(desc(discountCodes.id)).limit(1);
    return { timeBonus: await findTimeBonus(q, m), welcome: welcomeRow ? await optional(check(q, m, welcomeRow)) : null };
  }

  const minimumOf = (row: CodeRow, currency: string) => row.minimums[currency] ?? 0;

  /**
   * The price of a bundle of `amount` cents with the best of the candidates, in the spec's order (time
   * bonus, the member's code, the welcome code) where a later one wins only by taking more off.
   */
  function priceFor(amount: number, currency: string, candidates: (Candidate | null)[]): PackagePrice & { applied: Candidate | null } {
    let best: Candidate | null = null;
    for (const c of candidates) {
      if (!c || amount < minimumOf(c.row, currency)) continue;
      if (!best || c.row.percentBp > best.row.percentBp) best = c;
    }
    if (!best) return { amount, original_amount: null, discount: null, applied: null };
    return {
      amount: discountedCents(amount, best.row.percentBp),
      original_amount: amount,
      discount: { code: best.row.code, kind: best.row.kind, percentage: percentage(best.row.percentBp) },
      applied: best,
    };
  }

  function record(m: Member, c: Candidate): DiscountCodeRecord {
    return {
      code: c.row.code, kind: c.row.kind, percentage: percentage(c.row.percentBp), minimum: minimumOf(c.row, m.currency),
      currency: m.currency, country: c.row.country, personal: c.row.userId !== null, expires: c.expiresAt?.toISOString() ?? null,
    };
  }

  /** The member's code, checked; a malformed or unknown one is not found. */
  async function requestedCandidate(q: Q, m: Member, code: string): Promise<Candidate> {
    const row = await findCode(q, m.siteId, code);
    if (!row) throw new AppError(404, 'discount_not_found');
    return check(q, m, row);
  }

  /**
   * A once-per-user code goes to one order at a time: the order that is placed with it holds it until it fails
   * or is cancelled (orders_discount_hold), so a second checkout cannot be charged the same discount again
   * (payments.placeOrder first tries to cancel an older open checkout at the provider, else refuses). Checked under a lock per member and code, so concurrent orders queue here and the
   * later one sees the earlier one's hold; the unique index backs that up.
   */
  async function hold(tx: Tx, userId: number, codeId: number) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`discount-hold:${userId}:${codeId}`}, 0))`);
    const [holder] = await tx.select({ id: orders.id, status: orders.status }).from(orders)
      .where(and(eq(orders.userId, userId), eq(orders.discountHoldId, codeId))).limit(1);
    if (holder?.status === 'completed') throw new AppError(409, 'discount_already_used');
    if (holder) throw new DiscountHeldError(holder.id);
  }

  /** The retention offer made to this member, if any (one per member: retention_offers' primary key). */
  async function madeOffer(q: Q, userId: number): Promise<CodeRow | null> {
    const [row] = await q.select({ code: discountCodes }).from(retentionOffers)
      .innerJoin(discountCodes, eq(discountCodes.id, retentionOffers.codeId)).where(eq(retentionOffers.userId, userId));
    return row?.code ?? null;
  }

  /** The company's delete_discount for the member's site, when it makes such an offer (1–90%). */
  async function offerPercent(q: Q, siteId: number): Promise<number | null> {
    const [row] = await q.select({ percent: companies.deleteDiscount }).from(sites)
      .innerJoin(companies, eq(companies.id, sites.companyId)).where(eq(sites.id, siteId));
    const percent = row?.percent ?? 0;
    return Number.isInteger(percent) && percent >= 1 && percent <= 90 ? percent : null;
  }

  const service = {
    /** GET /api/discountcode.php?code=: the code's record for this member, or why they cannot use it. */
    async lookup(actor: Actor, code: string): Promise<DiscountCodeRecord> {
      const m = await member(db, requireMember(actor).userId);
      return record(m, await requestedCandidate(db, m, code));
    },

    /** GET /api/discountcode.php?welcome=true: the welcome time bonus record (spec section 3), or 404. */
    async welcomeBonus(actor: Actor): Promise<WelcomeBonusRecord> {
      const { m, bonus } = await memberWithTimeBonus(requireMember(actor).userId);
      if (!bonus) throw new AppError(404, 'discount_not_found');
      return {
        code: TIME_BONUS_CODE, country: m.country, user_id: m.id, expires: bonus.expiresAt!.toISOString(),
        value_percentage: percentage(bonus.row.percentBp).toFixed(1), currency: m.currency,
        minimum_order_value: minimumOf(bonus.row, m.currency), status: 'active', validity: 'once-per-user', expired: false,
        paymentmethods: [...PAYMENT_METHODS],
      };
    },

    /**
     * The credits page: every bundle's price for this member with the active discount, and the member's
     * own code (from the link or the field) with the reason when it cannot be used.
     */
    async quote(actor: Actor, packages: CreditPackage[], code: string | null) {
      const m = await member(db, requireMember(actor).userId);
      const { timeBonus, welcome } = await automatic(db, m);
      let requested: Candidate | null = null;
      let error: AppError | null = null;
      if (code) {
        try {
          requested = await requestedCandidate(db, m, code);
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          error = e;
        }
      }
      const prices: Record<number, PackagePrice> = {};
      for (const p of packages) {
        const { applied: _applied, ...price } = priceFor(p.amount, p.currency, [timeBonus, requested, welcome]);
        prices[p.id] = price;
      }
      return { prices, code: requested ? record(m, requested) : null, error };
    },

    /**
     * The order's price, inside the transaction that creates it: the same rule as the page. A code the
     * member names must be usable for this bundle (else the refusal), the automatic ones apply by themselves.
     */
    async priceOrder(tx: Tx, input: { userId: number; amount: number; currency: string; code?: string | null }) {
      const m = await member(tx, input.userId);
      const { timeBonus, welcome } = await automatic(tx, m);
      let requested: Candidate | null = null;
      if (input.code) {
        requested = await requestedCandidate(tx, m, input.code);
        const minimum = minimumOf(requested.row, input.currency);
        if (input.amount < minimum) throw new AppError(422, 'discount_below_minimum', { minimum: (minimum / 100).toFixed(2), currency: input.currency });
      }
      const price = priceFor(input.amount, input.currency, [timeBonus, requested, welcome]);
      const row = price.applied?.row ?? null;
      const discountHoldId = row?.validity === 'once-per-user' ? row.id : null;
      if (discountHoldId !== null) await hold(tx, m.id, discountHoldId);
      return {
        amountCents: price.amount, originalAmountCents: row ? input.amount : null,
        discountCodeId: row?.id ?? null, discountCode: row?.code ?? null, discountBp: row?.percentBp ?? null, discountHoldId,
      };
    },

    /**
     * Books the use of the order's code, in the transaction that completes the order. A once-per-user code
     * that another completed order of the member already used is not booked twice (the unique index); the
     * order itself completes, since its payment was received.
     */
    async redeem(tx: Tx, order: typeof orders.$inferSelect) {
      if (order.discountCodeId === null) return;
      const [row] = await tx.select({ validity: discountCodes.validity }).from(discountCodes).where(eq(discountCodes.id, order.discountCodeId));
      if (!row) return;
      const oncePerUser = row.validity === 'once-per-user';
      await tx.insert(discountRedemptions).values({ userId: order.userId, codeId: order.discountCodeId, orderId: order.id, oncePerUser, createdAt: clock() })
        .onConflictDoNothing();
    },

    /**
     * The deletion page's retention offer (docs/decisions/048): a personal once-per-user code at the company's
     * delete_discount, valid PERSONAL_OFFER_DAYS, made when the member on their way out gives their reason and asks
     * for it. It is made once per member, ever: asking again gives the same code while it can be used, and once it
     * is used or expired the answer says so (409 discount_already_used, 410 discount_expired) and no new one is made.
     */
    async retentionOffer(actor: Actor, reason: DeleteReason): Promise<DiscountCodeRecord> {
      const { userId } = requireMember(actor);
      return db.transaction(async (tx) => {
        // One member's double click must not make two codes (the primary key would refuse the second anyway).
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`retention-offer:${userId}`}, 0))`);
        const m = await member(tx, userId);
        const made = await madeOffer(tx, userId);
        if (made) return record(m, await check(tx, m, made)); // the refusal once used or expired
        const percent = await offerPercent(tx, m.siteId);
        if (percent === null) throw new AppError(404, 'discount_not_found');
        const now = clock();
        const code = `STAY${percent}-${randomBytes(5).toString('hex').toUpperCase()}`;
        const [row] = await tx.insert(discountCodes).values({
          siteId: m.siteId, code, kind: 'personal', percentBp: percent * 100, userId, validity: 'once-per-user',
          expiresAt: new Date(now.getTime() + PERSONAL_OFFER_DAYS * 86_400_000), createdAt: now,
        }).returning();
        await tx.insert(retentionOffers).values({ userId, codeId: row.id, reason, createdAt: now });
        return record(m, { row, expiresAt: row.expiresAt });
      });
    },

    /**
     * What the deletion page offers this member: the percentage of the offer they may still claim (their own, if
     * it was made and can still be used; the company's, if none was made yet), or null when there is none.
     */
    async retentionOfferShown(actor: Actor): Promise<{ percentage: number } | null> {
      const { userId } = requireMember(actor);
      const m = await member(db, userId);
      const made = await madeOffer(db, userId);
      if (!made) {
        const percent = await offerPercent(db, m.siteId);
        return percent === null ? null : { percentage: percent };
      }
      try {
        return { percentage: percentage((await check(db, m, made)).row.percentBp) };
      } catch (e) {
        if (e instanceof AppError) return null;
        throw e;
      }
    },
  };
  return service;
}

export type DiscountsService = ReturnType<typeof createDiscountsService>;
