import type { Context } from 'hono';
import type { z } from 'zod';
import { idempotencyKeySchema } from '#common/schemas.ts';
import { AppError, authenticationRequired } from '../infra/errors.ts';
import type { AppEnv } from './context.ts';

export type C = Context<AppEnv>;

export function requireUserId(c: C): number {
  const id = c.get('userId');
  if (!id) throw authenticationRequired();
  return id;
}

/** Field errors become `details` ({ field: i18n key }); the first becomes the message. */
function validationError(error: z.ZodError): AppError {
  const details: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    const key = issue.message.startsWith('errors.') ? issue.message : 'errors.invalid_input';
    details[field] ??= key;
  }
  const first = Object.values(details)[0] ?? 'errors.invalid_input';
  return new AppError(400, first.replace(/^errors\./, ''), {}, details);
}

export function parse<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** A JSON body that is an object, or a clear 400. */
export async function jsonBody(c: C): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.includes('application/json')) throw new AppError(415, 'json_required');
  try {
    const body = await c.req.json();
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw new AppError(400, 'invalid_input');
}

/** The client retries every request: anything that spends or sends needs an Idempotency-Key header. */
export function idempotencyKey(c: C): string {
  const key = c.req.header('idempotency-key');
  const parsed = idempotencyKeySchema.safeParse(key);
  if (!parsed.success) throw new AppError(400, 'idempotency_key_required');
  return parsed.data;
}

export function positiveInt(value: unknown): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new AppError(404, 'not_found');
  return n;
}

export function rateLimit(c: C, limiter: { hit(key: string): number }) {
  const wait = limiter.hit(c.get('ctx').clientIp);
  if (wait > 0) {
    c.header('Retry-After', String(wait));
    throw new AppError(429, 'too_many_requests', { minutes: Math.ceil(wait / 60) });
  }
}
