import { readFileSync } from 'node:fs';
import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import { LANDER_NAMES, SLUGLESS_LANDERS, URL_WORD } from '#common/landers.ts';
import { PAGE_SLUGS } from '../content/content.service.ts';
import { TRACKING_KEYS, trackingValueSchema } from '#common/tracking.ts';
import type { Db } from '../db/client.ts';
import { sitePageTokens, sites } from '../db/schema.ts';
import type { SiteTexts, StoredPageToken } from '../settings/site-cache.ts';

/** One short path: it opens a lander (with an optional slug) or a static page, with its own tracking parameters. */
const pageTokenSchema = z
  .object({
    lander: z.enum(LANDER_NAMES).optional(),
    slug: z.string().regex(URL_WORD).optional(),
    page: z.enum(PAGE_SLUGS).optional(),
    tracking: z.object(Object.fromEntries(TRACKING_KEYS.map((k) => [k, trackingValueSchema.optional()]))).strict().default({}),
  })
  .strict()
  .refine((t) => Boolean(t.lander) !== Boolean(t.page), 'a token opens either a lander or a page')
  .refine((t) => !t.slug || (t.lander && !SLUGLESS_LANDERS.includes(t.lander)), 'only landers with a slug take one');

export type PageToken = z.infer<typeof pageTokenSchema>;

/** Per site domain (as in the sites table), its tokens. */
const tableSchema = z.record(z.string().min(1), z.record(z.string().regex(URL_WORD), pageTokenSchema));
export type PageTokenTable = z.infer<typeof tableSchema>;

/**
 * Reads and checks content/page-tokens.json, the short paths the seed gives a new database (since decision 074 they live
 * in the database and the console); a mistake in it stops the seed with the path and the reason.
 */
export function loadPageTokens(file: string): PageTokenTable {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = tableSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/**
 * Writes a table's tokens to the sites it names by domain, leaving a token a site already has as it is (the console's
 * word wins): what the seed and `npm run seed` on an existing database do with content/page-tokens.json.
 */
export async function importPageTokens(db: Db, table: PageTokenTable): Promise<number> {
  const domains = Object.keys(table);
  if (!domains.length) return 0;
  const rows = await db.select({ id: sites.id, domain: sites.domain }).from(sites).where(inArray(sites.domain, domains));
  const values = rows.flatMap((site) => Object.entries(table[site.domain]).map(([token, t]) => ({
    siteId: site.id, token, lander: t.lander ?? null, slug: t.slug ?? null, page: t.page ?? null,
    tracking: Object.fromEntries(Object.entries(t.tracking).filter((e): e is [string, string] => Boolean(e[1]))),
  })));
  if (!values.length) return 0;
  const written = await db.insert(sitePageTokens).values(values).onConflictDoNothing().returning({ token: sitePageTokens.token });
  return written.length;
}

/**
 * Where a token leads: its lander or page, with the token's tracking parameters. Other parameters of
 * the visited URL come along (a partner may add its own sub-id); the token's own values win, because
 * the short path is that partner's.
 */
export function pageTokenTarget(token: PageToken, query: URLSearchParams): string {
  const params = new URLSearchParams(query);
  // In TRACKING_KEYS' order, whatever order the database keeps them in (PostgreSQL's jsonb sorts its keys).
  for (const key of TRACKING_KEYS) {
    const value = token.tracking[key];
    if (value) params.set(key, value);
  }
  const path = token.lander
    ? `/landers/${token.lander}${token.slug ? `/${token.slug}` : ''}`
    : token.page === 'complaints' ? '/complaints' : `/pages/${token.page}`;
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** A stored token (sitePageTokens, through the site cache) as the redirect reads it. */
export function storedPageToken(stored: StoredPageToken): PageToken {
  return {
    ...(stored.lander ? { lander: stored.lander as PageToken['lander'] } : {}),
    ...(stored.slug ? { slug: stored.slug } : {}),
    ...(stored.page ? { page: stored.page as PageToken['page'] } : {}),
    tracking: stored.tracking,
  };
}

/** The site-defined short paths (`/{token}`), kept per site in the database and read through the site cache. */
export function createPageTokens(deps: { texts: (siteId: number) => Promise<SiteTexts> }) {
  return {
    async resolve(siteId: number, token: string): Promise<PageToken | null> {
      if (!URL_WORD.test(token)) return null;
      const { tokens } = await deps.texts(siteId);
      return Object.hasOwn(tokens, token) ? storedPageToken(tokens[token]) : null;
    },
  };
}
