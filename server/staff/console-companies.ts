import { asc, count, eq } from 'drizzle-orm';
import { companySchema, paymentAccountSchema, type CompanyValues } from '#common/site-settings.ts';
import type { Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { companies, paymentAccounts, sites } from '../db/schema.ts';
import { AppError } from '../infra/errors.ts';
import type { AuditLog } from './audit.ts';
import { changes, consoleAdmin, parseOr400 } from './console-forms.ts';
import type { StaffRequest } from '../support/member-support.ts';

type CompanyRow = typeof companies.$inferSelect;

/** A company in the form's shape (lists as one entry a line). */
function formOf(c: CompanyRow): Record<keyof CompanyValues, string> {
  return {
    name: c.name, address: c.address, city: c.city, country: c.country, kvk: c.kvk, vatNumbers: c.vatNumbers.join('\n'),
    tradenames: c.tradenames.join('\n'), supportPhone: c.supportPhone, deleteDiscount: String(c.deleteDiscount),
  };
}

/** The key's last four characters only: enough to tell two keys apart, never enough to use one. */
const lastFour = (key: string | null) => (key ? key.slice(-4) : null);

/**
 * The console's companies (issue 27): who runs the sites, with their registration and VAT numbers, the retention
 * offer, and the payment account that takes the payments of every site of theirs (as `payments:account` sets it).
 * Companies span sites, so only admins of every site reach them. An API key goes in and never comes out: answers and
 * audit rows carry its last four characters at most.
 */
export function createConsoleCompanies(deps: { db: Db; audit: AuditLog; invalidateSites: () => Promise<void> }) {
  const { db, audit } = deps;

  return {
    /** Every company, by name, with how many sites it runs and its payment provider (admins of every site). */
    async companyList(actor: Actor) {
      consoleAdmin(actor, null);
      const rows = await db.select({ id: companies.id, name: companies.name, city: companies.city, country: companies.country, provider: paymentAccounts.provider })
        .from(companies).leftJoin(paymentAccounts, eq(paymentAccounts.companyId, companies.id)).orderBy(asc(companies.name), asc(companies.id));
      const counts = await db.select({ companyId: sites.companyId, n: count() }).from(sites).groupBy(sites.companyId);
      return rows.map((r) => ({ ...r, provider: r.provider ?? null, sites: counts.find((c) => c.companyId === r.id)?.n ?? 0 }));
    },

    /** A company's details as the form shows them, and its payment account without its key (admins of every site). */
    async company(actor: Actor, companyId: number) {
      consoleAdmin(actor, null);
      const [row] = await db.select().from(companies).where(eq(companies.id, companyId));
      if (!row) throw new AppError(404, 'not_found');
      const [account] = await db.select({ provider: paymentAccounts.provider, apiKey: paymentAccounts.apiKey }).from(paymentAccounts)
        .where(eq(paymentAccounts.companyId, companyId));
      return {
        id: row.id, values: formOf(row),
        account: account ? { provider: account.provider, keyEnd: lastFour(account.apiKey) } : null,
      };
    },

    async createCompany(actor: Actor, input: unknown, from: StaffRequest = { ip: null }): Promise<{ id: number }> {
      const staff = consoleAdmin(actor, null);
      const values = parseOr400(companySchema, input);
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(companies).values(values).returning({ id: companies.id });
        await audit.record(tx, { actor: staff, role: 'admin', action: 'company.create', objectType: 'company', objectId: row!.id, after: values, ip: from.ip });
        return { id: row!.id };
      });
    },

    /** Changes a company's details; its sites show them within a second (the site cache holds each site's company). */
    async updateCompany(actor: Actor, companyId: number, input: unknown, from: StaffRequest = { ip: null }): Promise<{ changed: string[] }> {
      const staff = consoleAdmin(actor, null);
      const values = parseOr400(companySchema, input);
      const changed = await db.transaction(async (tx) => {
        const [before] = await tx.select().from(companies).where(eq(companies.id, companyId)).for('update');
        if (!before) throw new AppError(404, 'not_found');
        const diff = changes(before, values);
        const fields = Object.keys(diff.after);
        if (!fields.length) return fields;
        await tx.update(companies).set(diff.after).where(eq(companies.id, companyId));
        await audit.record(tx, { actor: staff, role: 'admin', action: 'company.update', objectType: 'company', objectId: companyId, ...diff, ip: from.ip });
        return fields;
      });
      if (changed.length) await deps.invalidateSites();
      return { changed };
    },

    /**
     * The payment account of every site of the company: the test provider, or Mollie with its API key. An empty key
     * keeps the stored one. The audit row says which provider before and after and whether the key changed, and
     * carries no key; the answer names its last four characters.
     */
    async setPaymentAccount(actor: Actor, companyId: number, input: unknown, from: StaffRequest = { ip: null }) {
      const staff = consoleAdmin(actor, null);
      const { provider, apiKey } = parseOr400(paymentAccountSchema, input);
      return db.transaction(async (tx) => {
        const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
        if (!company) throw new AppError(404, 'not_found');
        const [before] = await tx.select().from(paymentAccounts).where(eq(paymentAccounts.companyId, companyId));
        const key = provider === 'test' ? null : apiKey || (before?.provider === 'mollie' ? before.apiKey : null);
        if (provider === 'mollie' && !key) throw new AppError(400, 'invalid_input', {}, { apiKey: 'errors.payment_key_required' });
        const keyChanged = (before?.apiKey ?? null) !== key;
        if (before?.provider === provider && !keyChanged) return { provider, keyEnd: lastFour(key) };
        // Updated in place: stored payments and mandates keep pointing at the account (a rotated key fetches them as before).
        if (before) await tx.update(paymentAccounts).set({ provider, apiKey: key }).where(eq(paymentAccounts.id, before.id));
        else await tx.insert(paymentAccounts).values({ companyId, provider, apiKey: key });
        await audit.record(tx, {
          actor: staff, role: 'admin', action: 'company.payment_account', objectType: 'company', objectId: companyId,
          before: before ? { provider: before.provider, key: before.apiKey ? 'set' : 'none' } : null,
          after: { provider, key: key ? (keyChanged ? 'changed' : 'kept') : 'none' }, ip: from.ip,
        });
        return { provider, keyEnd: lastFour(key) };
      });
    },
  };
}

export type ConsoleCompanies = ReturnType<typeof createConsoleCompanies>;
