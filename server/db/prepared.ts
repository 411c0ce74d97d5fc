import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';

/**
 * Runs a raw statement as a named prepared statement: PostgreSQL parses and plans it once per connection
 * instead of on every call, which for the long statements of the hottest paths (a chat send) is about a
 * third of their cost (docs/decisions/024). The name carries a digest of the text, so a statement with an
 * optional part gets one prepared statement per variant and a name never meets another text. Only for
 * statements whose best plan does not depend on the values (lookups by key): the server may settle on one
 * generic plan. PGlite runs it as any other statement.
 */
export async function executePrepared<T>(q: Db | Tx, name: string, statement: SQL): Promise<T[]> {
  const { session, dialect } = q as unknown as { session: PgSession; dialect: PgDialect };
  const query = dialect.sqlToQuery(statement);
  const digest = createHash('sha1').update(query.sql).digest('base64url').slice(0, 12);
  const result = await session.prepareQuery(query, undefined, `${name}_${digest}`, false).execute();
  return (result as { rows: T[] }).rows;
}
