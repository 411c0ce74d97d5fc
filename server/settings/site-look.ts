import { z } from 'zod';
import { NICHES } from '#common/constants.ts';
import { HEX_COLOUR } from '#common/site-theme.ts';
import { AppError } from '../infra/errors.ts';
import { isLocalHostname } from './origin.ts';

/** #rgb or #rrggbb in any case, stored as lower-case #rrggbb (the database checks that form). */
const colour = z.string().trim().toLowerCase()
  .transform((v) => (/^#[0-9a-f]{3}$/.test(v) ? `#${[...v.slice(1)].map((c) => c + c).join('')}` : v))
  .pipe(z.string().regex(HEX_COLOUR));

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** https anywhere; plain http only for a name that never leaves this machine (development, tests). */
const allowedProtocol = (url: URL) => url.protocol === 'https:' || (url.protocol === 'http:' && isLocalHostname(url.hostname));

/**
 * cdn_prefix: '' (this server) or an origin, optionally with a path, that serves /assets/* and
 * /photos/* as this server does (an origin-pull CDN). No query, fragment or credentials: the
 * prefix is put before paths and into the Content-Security-Policy.
 */
const cdnPrefix = z.string().trim().max(200).transform((v) => v.replace(/\/+$/, '')).refine((v) => {
  if (v === '') return true;
  const url = parseUrl(v);
  return Boolean(url && allowedProtocol(url) && !url.search && !url.hash && !url.username && !url.password && !/[\s"'`;,]/.test(v));
});

/** The navbar logo: '' (the name as a text mark), a path on this server, or an https URL (on the CDN, say). */
const logoUrl = z.string().trim().max(300).refine((v) => {
  if (v === '') return true;
  if (/[\s"'`<>\\]/.test(v)) return false;
  if (v.startsWith('/')) return !v.startsWith('//');
  const url = parseUrl(v);
  return Boolean(url && allowedProtocol(url) && !url.username && !url.password);
});

/** The white-label settings an operator changes, checked before they are stored. */
export const siteLookSchema = z.object({
  niche: z.coerce.number().int().min(1).max(NICHES.length),
  themePrimary: colour,
  themeSecondary: colour,
  themeDark: colour,
  logoUrl,
  cdnPrefix,
}).partial();

export type SiteLook = z.infer<typeof siteLookSchema>;

/** Validates the look fields of a settings change: 400 naming the field, nothing stored. */
export function checkSiteLook(patch: Record<string, unknown>): SiteLook {
  const look = Object.fromEntries(Object.keys(siteLookSchema.shape).filter((k) => patch[k] !== undefined).map((k) => [k, patch[k]]));
  const parsed = siteLookSchema.safeParse(look);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'settings');
    throw new AppError(400, 'invalid_input', {}, { [field]: 'errors.invalid_input' });
  }
  return parsed.data;
}

/** The origin of a cdn_prefix, for the Content-Security-Policy; null when there is none. */
export function cdnOrigin(prefix: string): string | null {
  return prefix ? parseUrl(prefix)?.origin ?? null : null;
}
