import { discountCodeSchema } from '#common/discounts.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';

/** Why a code a link brought is not tried: an i18n error code (errors.<code>) and its parameters. */
export interface CodeRefusal {
  code: string;
  params?: Record<string, string | number>;
}

/**
 * A discount code a member brought in a link (`?code=`, `?discount=`), as far as it may be tried: a malformed one, or
 * one over the look-ups' limit (`limit`, the limit of GET /api/discountcode.php: links are no way around it), is
 * refused with its reason; no code at all is neither.
 */
export async function codeFromLink(limit: RateLimiter | undefined, userId: number, raw: string | null): Promise<{ code: string | null; refusal: CodeRefusal | null }> {
  if (raw === null || raw.trim() === '') return { code: null, refusal: null };
  const parsed = discountCodeSchema.safeParse(raw);
  if (!parsed.success) return { code: null, refusal: { code: 'discount_code_invalid' } };
  const wait = (await limit?.hit(`member:${userId}`)) ?? 0;
  if (wait > 0) return { code: null, refusal: { code: 'too_many_requests', params: { minutes: Math.ceil(wait / 60) } } };
  return { code: parsed.data, refusal: null };
}
