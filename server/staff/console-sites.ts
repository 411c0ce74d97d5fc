import { asc, desc, eq, inArray } from 'drizzle-orm';
import { minimumCostsText, siteSettingsSchema, type SiteSettings } from '#common/site-settings.ts';
import { can, type Actor, type StaffActor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { companies, sites } from '../db/schema.ts';
import { AppError } from '../infra/errors.ts';
import type { AuditLog } from './audit.ts';
import type { StaffRequest } from '../support/member-support.ts';
import { changes, consoleAdmin, parseOr400 } from './console-forms.ts';

type SiteRow = typeof sites.$inferSelect;

/** A site's settings as the console's form shows them (every field of siteSettingsSchema, as its input). */
export type SiteForm = Record<keyof SiteSettings, string | boolean | string[]>;

/** The stored site in the form's shape. */
function formOf(site: SiteRow): SiteForm {
  const values = {} as SiteForm;
  for (const key of Object.keys(siteSettingsSchema.shape) as (keyof SiteSettings)[]) {
    const value = site[key];
    values[key] = key === 'minimumMessageCosts' ? minimumCostsText(site.minimumMessageCosts)
      : typeof value === 'boolean' || Array.isArray(value) ? value : String(value ?? '');
  }
  return values;
}

/**
 * The console's sites (issue 27): the list an admin reaches, a site's every setting, a new site. Each change is
 * checked by siteSettingsSchema (the form's own), written with one audit row holding the changed fields before and
 * after in the same transaction, and then announced to every instance through the site cache's version stamp.
 */
export function createConsoleSites(deps: { db: Db; audit: AuditLog; invalidateSites: () => Promise<void> }) {
  const { db, audit } = deps;

  /** Companies to choose from: every one for admins of every site, else the site's own. */
  async function companyChoices(staff: StaffActor, own: number | null) {
    const rows = await db.select({ id: companies.id, name: companies.name }).from(companies).orderBy(asc(companies.name), asc(companies.id));
    return can(staff, 'admin', null) ? rows : rows.filter((c) => c.id === own);
  }

  /** A new site's domain is unique: a taken one is the domain field's error. */
  async function uniqueDomain<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'invalid_input', {}, { domain: 'errors.domain_taken' });
      throw error;
    }
  }

  /** The company a form names, or the company field's error. */
  async function requireCompany(tx: Pick<Db, 'select'>, companyId: number) {
    const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
    if (!company) throw new AppError(400, 'invalid_input', {}, { companyId: 'errors.invalid_choice' });
  }

  return {
    /** The sites the staff member administers, by name, with their company (admins; others 403). */
    async siteList(actor: Actor) {
      if (actor.kind !== 'staff' || !actor.roles.includes('admin')) throw new AppError(403, 'forbidden');
      if (actor.siteIds !== null && !actor.siteIds.length) return [];
      return db.select({ id: sites.id, name: sites.name, domain: sites.domain, isDefault: sites.isDefault, company: companies.name })
        .from(sites).innerJoin(companies, eq(companies.id, sites.companyId))
        .where(actor.siteIds === null ? undefined : inArray(sites.id, [...actor.siteIds])).orderBy(asc(sites.name), asc(sites.id));
    },

    /** A site's every setting as the form shows it, with the companies it may belong to (admins of the site). */
    async siteSettings(actor: Actor, siteId: number) {
      const staff = consoleAdmin(actor, siteId);
      const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
      if (!site) throw new AppError(404, 'not_found');
      return { id: site.id, domain: site.domain, values: formOf(site), companies: await companyChoices(staff, site.companyId) };
    },

    /** A new site's form: the default site's settings, without its name and domain (admins of every site). */
    async newSiteForm(actor: Actor) {
      const staff = consoleAdmin(actor, null);
      const [base] = await db.select().from(sites).orderBy(desc(sites.isDefault), asc(sites.id)).limit(1);
      const values = base ? { ...formOf(base), name: '', domain: '' } : null;
      return { values, companies: await companyChoices(staff, null) };
    },

    /** Adds a site (admins of every site); every instance serves it within a second. */
    async createSite(actor: Actor, input: unknown, from: StaffRequest = { ip: null }): Promise<{ id: number }> {
      const staff = consoleAdmin(actor, null);
      const values = parseOr400(siteSettingsSchema, input);
      const created = await uniqueDomain(() => db.transaction(async (tx) => {
        await requireCompany(tx, values.companyId);
        const [row] = await tx.insert(sites).values({ ...values, isDefault: false }).returning();
        await audit.record(tx, { actor: staff, role: 'admin', action: 'site.create', objectType: 'site', objectId: row!.id, after: values, ip: from.ip });
        return row!;
      }));
      await deps.invalidateSites();
      return { id: created.id };
    },

    /**
     * Changes a site's settings (admins of the site; moving it to another company needs admin of every site). Nothing
     * changed writes nothing; a change writes one audit row with the changed fields before and after, and every
     * instance serves it within a second, without a restart.
     */
    async updateSite(actor: Actor, siteId: number, input: unknown, from: StaffRequest = { ip: null }): Promise<{ changed: string[] }> {
      const staff = consoleAdmin(actor, siteId);
      const values = parseOr400(siteSettingsSchema, input);
      const changed = await uniqueDomain(() => db.transaction(async (tx) => {
        const [before] = await tx.select().from(sites).where(eq(sites.id, siteId)).for('update');
        if (!before) throw new AppError(404, 'not_found');
        const diff = changes(before, values);
        const fields = Object.keys(diff.after);
        if (!fields.length) return fields;
        if ('companyId' in diff.after) {
          if (!can(staff, 'admin', null)) throw new AppError(403, 'forbidden');
          await requireCompany(tx, values.companyId);
        }
        await tx.update(sites).set(diff.after).where(eq(sites.id, siteId));
        await audit.record(tx, { actor: staff, role: 'admin', action: 'site.update', objectType: 'site', objectId: siteId, before: diff.before, after: diff.after, ip: from.ip });
        return fields;
      }));
      if (changed.length) await deps.invalidateSites();
      return { changed };
    },
  };
}

export type ConsoleSites = ReturnType<typeof createConsoleSites>;
