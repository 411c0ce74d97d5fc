/** The id and reference rules of common/input.ts without zod, so a page can check a route param without loading the schemas. */

/** Ids are PostgreSQL `integer` columns. */
export const MAX_ID = 2_147_483_647;

/** "7", never " 7 ", "07", "1e2", "7.0" or "+7". */
export const CANONICAL_ID = /^[1-9][0-9]{0,9}$/;

/** A positive 32-bit id or null: from a JSON number or a canonical decimal string (query strings, route params). */
export function toId(value: unknown): number | null {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && CANONICAL_ID.test(value)) n = Number(value);
  else return null;
  return Number.isInteger(n) && n >= 1 && n <= MAX_ID ? n : null;
}

/** An opaque reference the server or a payment provider issued (`ord_…`, `tr_…`): nothing else reaches a query. */
/** An order or payment reference (ours or a provider's): letters, digits, _ and -, at most 64. */
export const REFERENCE = /^[A-Za-z0-9_-]{1,64}$/;

export function isReference(value: unknown): value is string {
  return typeof value === 'string' && REFERENCE.test(value);
}
