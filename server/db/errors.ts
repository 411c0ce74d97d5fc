/**
 * A unique index refused the row (PostgreSQL 23505), also when the driver wraps the error; with `index`, only
 * when that index refused it.
 */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string; cause?: { code?: string; constraint?: string; message?: string } };
  const pgError = e?.code === '23505' ? e : e?.cause?.code === '23505' ? e.cause : null;
  if (!pgError) return false;
  return index === undefined || pgError.constraint === index || Boolean(pgError.message?.includes(`"${index}"`));
}
