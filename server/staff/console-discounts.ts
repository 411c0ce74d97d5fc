import { and, asc, count, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import { discountDays, discountFormSchema, discountWindow, type DiscountForm } from '#common/catalogue.ts';
import { can, requireStaffRole, type Actor, type StaffActor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { discountCodes, discountRedemptions, sites } from '../db/schema.ts';
import { AppError } from '../infra/errors.ts';
import type { AuditLog } from './audit.ts';
import { changes, parseOr400 } from './console-forms.ts';
import type { StaffRequest } from '../support/member-support.ts';

type CodeRow = typeof discountCodes.$inferSelect;

/** The code as its form holds it (what the audit row's before and after hold). */
function formOf(row: CodeRow): DiscountForm {
  return {
    code: row.code, kind: row.kind === 'welcome' ? 'welcome' : 'code', everySite: row.siteId === null, percentBp: row.percentBp, minimums: row.minimums,
    country: row.country, oncePerMember: row.validity === 'once-per-user', ...discountDays(row.startsAt, row.expiresAt), active: row.active,
  };
}

/** The row a form stores, for the console's site `siteId`. */
const rowOf = (form: DiscountForm, siteId: number) => ({
  code: form.code, kind: form.kind, siteId: form.everySite ? null : siteId, percentBp: form.percentBp, minimums: form.minimums, country: form.country,
  validity: form.oncePerMember ? 'once-per-user' as const : 'unlimited' as const, active: form.active, ...discountWindow(form),
});

/**
 * The console's discount codes (issue 27, decision 075): the codes members type and the welcome codes, of one site or of
 * every site (a null site, which the member side already honours: a site's own code wins over one of every site with
 * the same name). Finance (or admin) of the site manages its codes; codes of every site need finance of every site.
 * Personal codes (retention offers) and the time bonus are made by the product, not here. One schema checks form and
 * use case; each change writes one audit row with before and after in its transaction. A code is never deleted (its
 * redemptions and orders name it): it is deactivated.
 */
export function createConsoleDiscounts(deps: { db: Db; audit: AuditLog; clock: () => Date }) {
  const { db, audit } = deps;

  /** Finance of the code's site (null: of every site). */
  const financeOf = (actor: Actor, siteId: number | null): StaffActor => requireStaffRole(actor, 'finance', siteId);

  async function siteExists(siteId: number) {
    const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId));
    if (!site) throw new AppError(404, 'not_found');
  }

  /** A code of the console's site (or of every site) that the console manages; a personal code or the time bonus is not found. */
  async function managed(q: Pick<Db, 'select'>, siteId: number, id: number, lock = false): Promise<CodeRow> {
    const query = q.select().from(discountCodes).where(and(
      eq(discountCodes.id, id), or(eq(discountCodes.siteId, siteId), isNull(discountCodes.siteId)), inArray(discountCodes.kind, ['code', 'welcome']),
    ));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw new AppError(404, 'not_found');
    return row;
  }

  /** A code's name is unique per site (and among the codes of every site): a taken one is the code field's error. */
  async function uniqueCode<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'invalid_input', {}, { code: 'errors.discount_code_taken' });
      throw error;
    }
  }

  return {
    /** The site's codes and the codes of every site, with how often each was redeemed (finance of the site). */
    async discountList(actor: Actor, siteId: number) {
      const staff = financeOf(actor, siteId);
      await siteExists(siteId);
      const rows = await db.select().from(discountCodes)
        .where(and(or(eq(discountCodes.siteId, siteId), isNull(discountCodes.siteId)), inArray(discountCodes.kind, ['code', 'welcome'])))
        .orderBy(asc(discountCodes.code), asc(discountCodes.id));
      const ids = rows.map((r) => r.id);
      const used = ids.length
        ? await db.select({ codeId: discountRedemptions.codeId, n: count() }).from(discountRedemptions).where(inArray(discountRedemptions.codeId, ids)).groupBy(discountRedemptions.codeId)
        : [];
      const mayEditEverySite = can(staff, 'finance', null);
      return rows.map((r) => ({
        id: r.id, ...formOf(r), uses: used.find((u) => u.codeId === r.id)?.n ?? 0, editable: r.siteId !== null || mayEditEverySite,
      }));
    },

    /** What the code's form starts from (finance of the code's site). */
    async discountEditor(actor: Actor, siteId: number, id: number): Promise<DiscountForm & { uses: number }> {
      financeOf(actor, siteId);
      const row = await managed(db, siteId, id);
      financeOf(actor, row.siteId);
      const [{ n }] = await db.select({ n: count() }).from(discountRedemptions).where(eq(discountRedemptions.codeId, id));
      return { ...formOf(row), uses: n };
    },

    /** Adds a code to the site, or to every site (finance of every site). */
    async createDiscount(actor: Actor, siteId: number, input: unknown, from: StaffRequest = { ip: null }): Promise<{ id: number }> {
      financeOf(actor, siteId);
      const values = parseOr400(discountFormSchema, input);
      const staff = financeOf(actor, values.everySite ? null : siteId);
      await siteExists(siteId);
      return uniqueCode(() => db.transaction(async (tx) => {
        const [row] = await tx.insert(discountCodes).values({ ...rowOf(values, siteId), createdAt: deps.clock() }).returning({ id: discountCodes.id });
        await audit.record(tx, { actor: staff, role: 'finance', action: 'discount.create', objectType: 'discount_code', objectId: row!.id, after: values, ip: from.ip });
        return { id: row!.id };
      }));
    },

    /**
     * Changes a code (finance of its site, and of every site when it is or becomes a code of every site). Nothing
     * changed writes nothing; orders already placed keep the price they were placed with.
     */
    async updateDiscount(actor: Actor, siteId: number, id: number, input: unknown, from: StaffRequest = { ip: null }): Promise<{ changed: string[] }> {
      financeOf(actor, siteId);
      const values = parseOr400(discountFormSchema, input);
      return uniqueCode(() => db.transaction(async (tx) => {
        const row = await managed(tx, siteId, id, true);
        const staff = financeOf(actor, row.siteId === null || values.everySite ? null : siteId);
        const diff = changes(formOf(row), values);
        const fields = Object.keys(diff.after);
        if (!fields.length) return { changed: fields };
        // An unchanged window keeps its stored moments (a code made elsewhere may end at another time than midnight).
        const window = 'startsOn' in diff.after || 'endsOn' in diff.after ? {} : { startsAt: row.startsAt, expiresAt: row.expiresAt };
        await tx.update(discountCodes).set({ ...rowOf(values, row.siteId ?? siteId), ...window }).where(eq(discountCodes.id, id));
        await audit.record(tx, { actor: staff, role: 'finance', action: 'discount.update', objectType: 'discount_code', objectId: id, before: diff.before, after: diff.after, ip: from.ip });
        return { changed: fields };
      }));
    },

    /** Stops a code (finance of its site): members can no longer use it; its redemptions stay. Audited; twice is once. */
    async deactivateDiscount(actor: Actor, siteId: number, id: number, from: StaffRequest = { ip: null }): Promise<{ changed: boolean }> {
      financeOf(actor, siteId);
      return db.transaction(async (tx) => {
        const row = await managed(tx, siteId, id, true);
        const staff = financeOf(actor, row.siteId);
        const [done] = await tx.update(discountCodes).set({ active: false }).where(and(eq(discountCodes.id, id), ne(discountCodes.active, false))).returning({ id: discountCodes.id });
        if (!done) return { changed: false };
        await audit.record(tx, { actor: staff, role: 'finance', action: 'discount.deactivate', objectType: 'discount_code', objectId: id, before: { active: true }, after: { active: false }, ip: from.ip });
        return { changed: true };
      });
    },
  };
}

export type ConsoleDiscounts = ReturnType<typeof createConsoleDiscounts>;
