import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { companies, sitePageTexts, sitePageTokens, sites } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { SharedCache } from '../infra/shared-cache.ts';

export type Site = typeof sites.$inferSelect;
export type Company = typeof companies.$inferSelect;

/** A short path as stored: a lander (with an optional slug) or a static page, with its tracking parameters. */
export interface StoredPageToken {
  lander: string | null;
  slug: string | null;
  page: string | null;
  tracking: Record<string, string>;
}

/** A site's own texts the console keeps (decision 074): its short paths, and its page texts by `<language>/<page>`. */
export interface SiteTexts {
  tokens: Readonly<Record<string, StoredPageToken>>;
  pages: Readonly<Record<string, { markdown: string; versionDate: Date }>>;
}

/** A site with its company and its own texts, as every request needs them. Frozen: it is shared by every request. */
export interface ResolvedSite {
  site: Site;
  company: Company;
  texts: SiteTexts;
}

/** The shared version stamp: a new random value after every settings change, on any instance. */
export const SITE_VERSION_KEY = 'settings:site-version';

export interface SiteCacheOptions {
  /** Most sites held at once (least recently used goes first). */
  maxEntries?: number;
  /** A safety net: an entry is reloaded after this long even if no change was announced. */
  ttlMs?: number;
  /** How often the shared version stamp is read: the longest another instance serves old settings. */
  checkEveryMs?: number;
}

export const SITE_CACHE_DEFAULTS = { maxEntries: 500, ttlMs: 5 * 60_000, checkEveryMs: 1_000 } as const;

/** What decides whose members a site's members meet (decision 051). */
export interface SiteSharing {
  id: number;
  companyId: number;
  memberResell: boolean;
}

/**
 * The sites whose members the members and visitors of `siteId` meet (decision 051): its own, and, when it resells
 * its members (member_resell), every site of its company that resells too; null when that is every site there is
 * (a list needs no filter then). The same rule as contact-rules' meetingSites, for lists whose query plans need the
 * site ids as values.
 */
export function meetingSiteIds(all: readonly SiteSharing[], siteId: number): number[] | null {
  const site = all.find((s) => s.id === siteId);
  const ids = site?.memberResell ? all.filter((s) => s.memberResell && s.companyId === site.companyId).map((s) => s.id) : [siteId];
  return ids.length === all.length && site ? null : ids;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Date) && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * The resolved site per request host, with its company, without a database query once warm.
 *
 * - Hosts map to sites through an index of every configured domain (one small query per load).
 *   A host that is not in it gets the default site and is never stored, so attacker-chosen Host
 *   headers neither fill memory nor cost a query each.
 * - Sites with their company are kept in a least-recently-used map of at most maxEntries.
 * - Any instance that changes settings writes a new version stamp to the shared cache (Redis or
 *   the database); every instance reads the stamp at most every checkEveryMs and drops everything
 *   when it changed. ttlMs bounds the age of an entry should a stamp ever be lost.
 */
export function createSiteCache(deps: { db: Db; clock: Clock; shared: SharedCache; options?: SiteCacheOptions; onError?: (error: unknown) => void }) {
  const { db, clock, shared } = deps;
  const { maxEntries, ttlMs, checkEveryMs } = { ...SITE_CACHE_DEFAULTS, ...deps.options };

  type Index = { byDomain: Map<string, number>; defaultId: number | null; sharing: SiteSharing[]; loadedAt: number };
  let index: Index | null = null;
  let indexLoading: Promise<Index> | null = null;
  const entries = new Map<number, { value: ResolvedSite; loadedAt: number }>();
  const loading = new Map<number, Promise<ResolvedSite | null>>();
  /** Bumped on every drop: a load that started before it must not store what it read. */
  let generation = 0;
  /** The version stamp last seen; undefined until first read. */
  let version: string | null | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<void> | null = null;

  const now = () => clock().getTime();

  function drop() {
    generation++;
    index = null;
    indexLoading = null;
    entries.clear();
    loading.clear();
  }

  async function checkVersion(): Promise<void> {
    if (now() - checkedAt < checkEveryMs) return;
    checking ??= (async () => {
      try {
        const current = await shared.get<string>(SITE_VERSION_KEY);
        if (version !== undefined && current !== version) drop();
        version = current;
        checkedAt = now();
      } catch (error) {
        // Redis or the database did not answer: keep serving what is held (the TTL still bounds
        // its age) and try again at the next interval.
        checkedAt = now();
        deps.onError?.(error);
      } finally {
        checking = null;
      }
    })();
    await checking;
  }

  async function loadIndex(): Promise<Index> {
    if (index && now() - index.loadedAt < ttlMs) return index;
    if (indexLoading) return indexLoading;
    const gen = generation;
    const promise = (async () => {
      const rows = await db.select({ id: sites.id, domain: sites.domain, isDefault: sites.isDefault, companyId: sites.companyId, memberResell: sites.memberResell })
        .from(sites).orderBy(sites.id);
      const loaded: Index = {
        byDomain: new Map(rows.map((r) => [r.domain, r.id])),
        defaultId: rows.find((r) => r.isDefault)?.id ?? null,
        sharing: rows.map((r) => ({ id: r.id, companyId: r.companyId, memberResell: r.memberResell })),
        loadedAt: now(),
      };
      if (gen === generation) index = loaded;
      return loaded;
    })();
    indexLoading = promise;
    try {
      return await promise;
    } finally {
      if (indexLoading === promise) indexLoading = null;
    }
  }

  async function loadSite(id: number): Promise<ResolvedSite | null> {
    const held = entries.get(id);
    if (held && now() - held.loadedAt < ttlMs) {
      // Least recently used goes first: a hit moves to the end.
      entries.delete(id);
      entries.set(id, held);
      return held.value;
    }
    const pending = loading.get(id);
    if (pending) return pending;
    const gen = generation;
    const promise = (async () => {
      const [row] = await db.select({ site: sites, company: companies }).from(sites)
        .innerJoin(companies, eq(companies.id, sites.companyId)).where(eq(sites.id, id));
      if (!row) return null;
      const [tokens, pages] = await Promise.all([
        db.select().from(sitePageTokens).where(eq(sitePageTokens.siteId, id)),
        db.select().from(sitePageTexts).where(eq(sitePageTexts.siteId, id)),
      ]);
      // Read with Object.hasOwn only (a token such as `constructor` must not reach the prototype).
      const texts: SiteTexts = {
        tokens: Object.fromEntries(tokens.map((t) => [t.token, { lander: t.lander, slug: t.slug, page: t.page, tracking: t.tracking }])),
        pages: Object.fromEntries(pages.map((p) => [`${p.language}/${p.page}`, { markdown: p.markdown, versionDate: p.versionDate }])),
      };
      const value = deepFreeze({ site: row.site, company: row.company, texts });
      if (gen === generation) {
        entries.delete(id);
        entries.set(id, { value, loadedAt: now() });
        while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      return value;
    })();
    loading.set(id, promise);
    try {
      return await promise;
    } finally {
      if (loading.get(id) === promise) loading.delete(id);
    }
  }

  return {
    /** The site of a normalized host with its company; unknown hosts get the default site. */
    async forHost(domain: string): Promise<ResolvedSite> {
      await checkVersion();
      const idx = await loadIndex();
      const id = idx.byDomain.get(domain) ?? idx.defaultId;
      const resolved = id === null ? null : await loadSite(id);
      if (!resolved) throw new Error('No site is configured: run `npm run seed` or add a site with is_default = true');
      return resolved;
    },

    /** Every configured domain. */
    async domains(): Promise<string[]> {
      await checkVersion();
      return [...(await loadIndex()).byDomain.keys()];
    },

    /** meetingSiteIds for `siteId`, from the index (no query once warm). */
    async meetingSites(siteId: number): Promise<number[] | null> {
      await checkVersion();
      return meetingSiteIds((await loadIndex()).sharing, siteId);
    },

    /** A site by id with its company (null when there is none). */
    async byId(id: number): Promise<ResolvedSite | null> {
      await checkVersion();
      return loadSite(id);
    },

    /** After a change: this instance drops everything now, the others at their next version check. */
    async invalidate(): Promise<void> {
      const next = randomUUID();
      drop();
      version = next;
      checkedAt = now();
      await shared.set(SITE_VERSION_KEY, next);
    },

    /** How many sites are held (for tests and metrics). */
    size: () => entries.size,
  };
}
