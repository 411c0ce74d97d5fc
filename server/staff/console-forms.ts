import type { z } from 'zod';
import { requireStaffRole, type Actor, type StaffActor } from '../actor.ts';
import { AppError } from '../infra/errors.ts';

/** What the console's forms share: the role most settings need, the form's check, and what a save changed. */

/** Admin on `siteId` (null: of every site), or 403. */
export const consoleAdmin = (actor: Actor, siteId: number | null): StaffActor => requireStaffRole(actor, 'admin', siteId);

/**
 * A form's value checked by its shared schema, or 400 with each bad field's message key beside its name (the page
 * shows them where the browser would have): the same check as the form's before sending.
 */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const name = String(issue.path[0] ?? 'form');
    fields[name] ??= issue.message.startsWith('errors.') ? issue.message : 'errors.invalid_input';
  }
  throw new AppError(400, 'invalid_input', {}, fields);
}

/** A value as JSON with every object's keys in order: a JSON column gives its keys back in its own order. */
const canonical = (value: unknown): string => JSON.stringify(value, (_key, v: unknown) =>
  (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));

/** The fields whose value changed, before and after (what the audit row keeps). */
export function changes(before: object, after: object): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const [key, value] of Object.entries(after)) {
    const old = (before as Record<string, unknown>)[key];
    if (canonical(old) !== canonical(value)) {
      out.before[key] = old;
      out.after[key] = value;
    }
  }
  return out;
}
