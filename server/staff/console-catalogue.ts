import { asc, count, eq, inArray } from 'drizzle-orm';
import { aboutMessages, packageFormSchema, type PackageForm } from '#common/catalogue.ts';
import { requireStaffRole, type Actor, type StaffActor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { creditPackagePrices, creditPackages, directDebitRequests, orders, sites } from '../db/schema.ts';
import { AppError } from '../infra/errors.ts';
import type { AuditLog } from './audit.ts';
import { changes, parseOr400 } from './console-forms.ts';
import type { StaffRequest } from '../support/member-support.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Finance (or admin) on `siteId`; null: on every site. Packages are shared by every site (the schema has no site
 * column), so changing one needs finance of every site; reading a site's list needs finance of that site.
 */
const consoleFinance = (actor: Actor, siteId: number | null): StaffActor => requireStaffRole(actor, 'finance', siteId);

/** A package with its prices, as stored (what the audit row's before and after hold). */
async function packageOf(tx: Pick<Db, 'select'>, id: number): Promise<PackageForm | null> {
  const [row] = await tx.select().from(creditPackages).where(eq(creditPackages.id, id));
  if (!row) return null;
  const rows = await tx.select({ currency: creditPackagePrices.currency, amountCents: creditPackagePrices.amountCents })
    .from(creditPackagePrices).where(eq(creditPackagePrices.packageId, id)).orderBy(asc(creditPackagePrices.currency));
  return { credits: row.credits, popular: row.popular, sort: row.sort, active: row.active, prices: Object.fromEntries(rows.map((p) => [p.currency, p.amountCents])) };
}

async function writePrices(tx: Tx, packageId: number, prices: Record<string, number>) {
  await tx.delete(creditPackagePrices).where(eq(creditPackagePrices.packageId, packageId));
  await tx.insert(creditPackagePrices).values(Object.entries(prices).map(([currency, amountCents]) => ({ packageId, currency, amountCents })));
}

/**
 * The console's catalogue (issue 27): credit packages and their prices per currency in integer cents. Each change is
 * checked by packageFormSchema (the form's own) and written with one audit row holding before and after in the same
 * transaction. A price change never changes what an open checkout charges: an order keeps its stored amount, and an
 * order placed with the amount the member was shown is refused (409 price_changed) when that is no longer the price.
 */
export function createConsoleCatalogue(deps: { db: Db; audit: AuditLog }) {
  const { db, audit } = deps;

  return {
    /**
     * Every package with its prices and order count, and "about N messages" at the site's message price (finance of
     * the site).
     */
    async packageList(actor: Actor, siteId: number) {
      consoleFinance(actor, siteId);
      const [site] = await db.select({ messageCredits: sites.messageCredits }).from(sites).where(eq(sites.id, siteId));
      if (!site) throw new AppError(404, 'not_found');
      const rows = await db.select().from(creditPackages).orderBy(asc(creditPackages.sort), asc(creditPackages.credits), asc(creditPackages.id));
      const ids = rows.map((r) => r.id);
      const prices = ids.length ? await db.select().from(creditPackagePrices).where(inArray(creditPackagePrices.packageId, ids)).orderBy(asc(creditPackagePrices.currency)) : [];
      const used = ids.length
        ? await db.select({ packageId: orders.packageId, n: count() }).from(orders).where(inArray(orders.packageId, ids)).groupBy(orders.packageId)
        : [];
      return rows.map((r) => ({
        id: r.id, credits: r.credits, popular: r.popular, sort: r.sort, active: r.active,
        aboutMessages: aboutMessages(r.credits, site.messageCredits),
        prices: Object.fromEntries(prices.filter((p) => p.packageId === r.id).map((p) => [p.currency, p.amountCents])),
        orders: used.find((u) => u.packageId === r.id)?.n ?? 0,
      }));
    },

    /**
     * What the package form starts from: the stored package (null for a new one) and the site's message price, for
     * "about N messages" beside the credits. Only those who may change packages (finance of every site) get it.
     */
    async packageEditor(actor: Actor, siteId: number, packageId: number | null): Promise<{ values: PackageForm | null; messageCredits: number }> {
      consoleFinance(actor, null);
      const [site] = await db.select({ messageCredits: sites.messageCredits }).from(sites).where(eq(sites.id, siteId));
      if (!site) throw new AppError(404, 'not_found');
      if (packageId === null) return { values: null, messageCredits: site.messageCredits };
      const values = await packageOf(db, packageId);
      if (!values) throw new AppError(404, 'not_found');
      return { values, messageCredits: site.messageCredits };
    },

    /** Adds a package with its prices (finance of every site). */
    async createPackage(actor: Actor, input: unknown, from: StaffRequest = { ip: null }): Promise<{ id: number }> {
      const staff = consoleFinance(actor, null);
      const values = parseOr400(packageFormSchema, input);
      return db.transaction(async (tx) => {
        const { prices, ...pkg } = values;
        const [row] = await tx.insert(creditPackages).values(pkg).returning({ id: creditPackages.id });
        await writePrices(tx, row!.id, prices);
        await audit.record(tx, { actor: staff, role: 'finance', action: 'package.create', objectType: 'credit_package', objectId: row!.id, after: values, ip: from.ip });
        return { id: row!.id };
      });
    },

    /**
     * Changes a package and its prices (finance of every site). Nothing changed writes nothing; a change writes one audit
     * row with the changed fields before and after. Orders already placed keep their amount.
     */
    async updatePackage(actor: Actor, packageId: number, input: unknown, from: StaffRequest = { ip: null }): Promise<{ changed: string[] }> {
      const staff = consoleFinance(actor, null);
      const values = parseOr400(packageFormSchema, input);
      return db.transaction(async (tx) => {
        await tx.select({ id: creditPackages.id }).from(creditPackages).where(eq(creditPackages.id, packageId)).for('update');
        const before = await packageOf(tx, packageId);
        if (!before) throw new AppError(404, 'not_found');
        const diff = changes(before, values);
        const fields = Object.keys(diff.after);
        if (!fields.length) return { changed: fields };
        const { prices, ...pkg } = values;
        await tx.update(creditPackages).set(pkg).where(eq(creditPackages.id, packageId));
        if ('prices' in diff.after) await writePrices(tx, packageId, prices);
        await audit.record(tx, { actor: staff, role: 'finance', action: 'package.update', objectType: 'credit_package', objectId: packageId, before: diff.before, after: diff.after, ip: from.ip });
        return { changed: fields };
      });
    },

    /**
     * Removes a package no order or direct debit names; one that is named is deactivated instead (no longer offered,
     * its orders' records intact). Finance of every site; audited either way.
     */
    async removePackage(actor: Actor, packageId: number, from: StaffRequest = { ip: null }): Promise<{ outcome: 'deleted' | 'deactivated' }> {
      const staff = consoleFinance(actor, null);
      return db.transaction(async (tx) => {
        await tx.select({ id: creditPackages.id }).from(creditPackages).where(eq(creditPackages.id, packageId)).for('update');
        const before = await packageOf(tx, packageId);
        if (!before) throw new AppError(404, 'not_found');
        const [{ n: ordered }] = await tx.select({ n: count() }).from(orders).where(eq(orders.packageId, packageId));
        const [{ n: debits }] = await tx.select({ n: count() }).from(directDebitRequests).where(eq(directDebitRequests.packageId, packageId));
        const record = { actor: staff, role: 'finance' as const, objectType: 'credit_package', objectId: packageId, ip: from.ip };
        if (ordered || debits) {
          await tx.update(creditPackages).set({ active: false }).where(eq(creditPackages.id, packageId));
          await audit.record(tx, { ...record, action: 'package.deactivate', before: { active: before.active }, after: { active: false } });
          return { outcome: 'deactivated' as const };
        }
        await tx.delete(creditPackages).where(eq(creditPackages.id, packageId));
        await audit.record(tx, { ...record, action: 'package.delete', before });
        return { outcome: 'deleted' as const };
      });
    },
  };
}

export type ConsoleCatalogue = ReturnType<typeof createConsoleCatalogue>;
