import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { LANDER_NAMES, SLUGLESS_LANDERS, URL_WORD } from '#common/landers.ts';
import { PAGE_SLUGS } from '../content/content.service.ts';
import { TRACKING_KEYS, trackingValueSchema } from '#common/tracking.ts';

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

/** Reads and checks the table; a mistake in it stops the start with the path and the reason, not a visitor's page. */
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
 * Where a token leads: its lander or page, with the token's tracking parameters. Other parameters of
 * the visited URL come along (a partner may add its own sub-id); the token's own values win, because
 * the short path is that partner's.
 */
export function pageTokenTarget(token: PageToken, query: URLSearchParams): string {
  const params = new URLSearchParams(query);
  for (const [key, value] of Object.entries(token.tracking)) if (value) params.set(key, value);
  const path = token.lander
    ? `/landers/${token.lander}${token.slug ? `/${token.slug}` : ''}`
    : token.page === 'complaints' ? '/complaints' : `/pages/${token.page}`;
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The site-defined short paths (`/{token}`), looked up by the site's domain. */
export function createPageTokens(table: PageTokenTable) {
  return {
    resolve(domain: string, token: string): PageToken | null {
      if (!URL_WORD.test(token)) return null;
      return Object.hasOwn(table, domain) && Object.hasOwn(table[domain], token) ? table[domain][token] : null;
    },
  };
}
