/** `memberId` → `member_id`, as a type. */
type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;

/** A use case's answer with the API's snake_case keys, at every depth. */
export type Wire<T> = T extends readonly (infer U)[] ? Wire<U>[]
  : T extends object ? { [K in keyof T as K extends string ? Snake<K> : K]: Wire<T[K]> }
  : T;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The API speaks snake_case (spec section 5); the server's code camelCase. Plain objects and arrays are converted;
 * anything else (strings, numbers, null) passes as it is.
 */
export function toWire<T>(value: T): Wire<T> {
  if (Array.isArray(value)) return value.map(toWire) as Wire<T>;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), toWire(v)])) as Wire<T>;
  }
  return value as Wire<T>;
}
