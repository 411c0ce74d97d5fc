import { sql, type Placeholder } from 'drizzle-orm';

/**
 * Where a statement's values go: `inline` puts them into the statement (one built for one request); `bound` (boundValues)
 * puts placeholders, whose names, in the order the statement takes them, are its shape.
 */
export type Values = (<T>(name: string, value: T) => T | Placeholder) & { mark(part: string): void };
// An array is one parameter (an SQL array), as a placeholder's value is; drizzle would spread it into a list.
export const inline: Values = Object.assign(<T>(_name: string, value: T) => (Array.isArray(value) ? (sql.param(value) as unknown as T) : value), { mark: () => {} });

/** Placeholders for a statement compiled once per shape: the values to execute it with, and the shape. */
export function boundValues() {
  const values: Record<string, unknown> = {};
  const shape: string[] = [];
  const v: Values = Object.assign(<T>(name: string, value: T) => {
    values[name] = value;
    shape.push(name);
    return sql.placeholder(name);
  }, { mark: (part: string) => { shape.push(`[${part}]`); } });
  return { v, values, shape: () => shape.join(' ') };
}
