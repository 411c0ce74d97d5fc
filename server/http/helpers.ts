import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { idempotencyKeySchema } from '#common/schemas.ts';
import { AppError } from '../infra/errors.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import type { AppEnv } from './context.ts';
import type { StaffRoleName } from '#common/staff.ts';
import { requireMember, type StaffActor } from '../actor.ts';
import type { UseCases } from '../use-cases.ts';

export type C = Context<AppEnv>;

/**
 * The acting member's id as the key of a per-member rate limit (an HTTP concern, so it stays in the
 * handler); a visitor is refused as the use case behind would refuse them.
 */
export function memberRateKey(c: C): string {
  return String(requireMember(c.get('ctx').actor).userId);
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

/** True for `application/json` with or without parameters (charset); not for a type that merely mentions it. */
export function isJsonContentType(header: string | undefined): boolean {
  return (header ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}

/** A JSON body that is an object, or a clear 400. */
export async function jsonBody(c: C): Promise<Record<string, unknown>> {
  if (!isJsonContentType(c.req.header('content-type'))) throw new AppError(415, 'json_required');
  try {
    const body = await c.req.json();
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw new AppError(400, 'invalid_input');
}

/**
 * The JSON body checked and converted by the endpoint's request schema, the one its contract in
 * common/contracts names: the contract is the rule, and a handler never inspects raw fields itself.
 */
export async function validBody<S extends z.ZodType>(c: C, schema: S): Promise<z.infer<S>> {
  return parse(schema, await jsonBody(c));
}

/** The client retries every request: anything that spends or sends needs an Idempotency-Key header. */
export function idempotencyKey(c: C): string {
  const key = c.req.header('idempotency-key');
  const parsed = idempotencyKeySchema.safeParse(key);
  if (!parsed.success) throw new AppError(400, 'idempotency_key_required');
  return parsed.data;
}

/**
 * `idempotencyKey` as a step of an endpoint's `before` (server/http/endpoint.ts): a request without one is refused
 * before its body is read; the handler then reads the key with `idempotencyKey(c)`.
 */
export const needsIdempotencyKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  idempotencyKey(c);
  await next();
};

/** 429 with Retry-After, the wait in the member's language. */
export function tooManyRequests(c: C, waitSeconds: number, code = 'too_many_requests'): AppError {
  c.header('Retry-After', String(waitSeconds));
  return new AppError(429, code, { count: Math.ceil(waitSeconds / 60) });
}

/** Counts one hit against each limiter for `key`; the seconds to wait when over any, else 0. */
export async function limitWait(limiters: RateLimiter | RateLimiter[], key: string): Promise<number> {
  for (const limiter of Array.isArray(limiters) ? limiters : [limiters]) {
    const wait = await limiter.hit(key);
    if (wait > 0) return wait;
  }
  return 0;
}

/** Counts one hit against each limiter for `key` (the client IP unless given); over any, 429. */
export async function rateLimit(c: C, limiters: RateLimiter | RateLimiter[], key: string = c.get('ctx').clientIp) {
  const wait = await limitWait(limiters, key);
  if (wait > 0) throw tooManyRequests(c, wait);
}

/**
 * `rateLimit` as a step of its own, for an endpoint's `before` (server/http/endpoint.ts): the limiters picked from the
 * services, counted per client address unless `key` names another (memberRateKey).
 */
export function limitedBy(limiters: (limits: UseCases['rateLimits']) => RateLimiter | RateLimiter[], key?: (c: C) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await rateLimit(c, limiters(c.get('ctx').services.rateLimits), key?.(c));
    await next();
  };
}

/**
 * The staff member acting, from the console session's cookie or an `Authorization: Bearer amora_st_…` token, with
 * `role` (or `admin`) somewhere: 401 staff_authentication_required without either, 403 forbidden without the role.
 * The sites they reach are the use case's to check.
 */
export async function requireStaffRole(c: C, role: StaffRoleName): Promise<StaffActor> {
  const staff = await c.get('ctx').staff();
  if (!staff) throw new AppError(401, 'staff_authentication_required');
  if (!staff.roles.includes(role) && !staff.roles.includes('admin')) throw new AppError(403, 'forbidden');
  return staff;
}
