import { z } from 'zod';
import { siteLookFields } from '#common/site-settings.ts';
import { AppError } from '../infra/errors.ts';

/** The white-label settings an operator changes, checked before they are stored (the console's form checks the same). */
export const siteLookSchema = z.object(siteLookFields).partial();

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
  if (!prefix) return null;
  try {
    return new URL(prefix).origin;
  } catch {
    return null;
  }
}
