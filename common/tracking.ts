import { z } from 'zod';
import { hasOnlyAllowedCharacters } from './input.ts';

/** Spec section 3: the tracking parameters of a landing URL, kept first-touch and stored with the sign-up. */
export const TRACKING_KEYS = ['network', 'ref', 'sub1', 'sub2', 'sub3'] as const;
export type TrackingKey = (typeof TRACKING_KEYS)[number];
export type Tracking = Partial<Record<TrackingKey, string | null>>;

/** One tracking value as an operator writes it (short paths): trimmed, 1–100 allowed characters. */
export const trackingValueSchema = z.string().trim().min(1).max(100).refine((v) => hasOnlyAllowedCharacters(v));

/** Tracking values from a query string or body: trimmed, at most 100 characters, empty ones left out. */
export function trackingFrom(source: Record<string, unknown>): Tracking {
  const tracking: Tracking = {};
  for (const key of TRACKING_KEYS) {
    const v = source[key];
    // Landing URLs are anyone's to write: a value the text rule refuses is dropped, not stored.
    if (typeof v === 'string' && v.trim() && hasOnlyAllowedCharacters(v)) tracking[key] = v.normalize('NFC').trim().slice(0, 100);
  }
  return tracking;
}
