import type { z } from 'zod';
import { idempotencyKeySchema } from '../schemas.ts';
import type { StaffRoleName } from '../staff.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** An answer that is not JSON: a redirect, an HTML page, an image or an empty body. */
export interface OtherResponse {
  description: string;
  /** The media type of the body; absent for an empty body (204, 302). */
  contentType?: 'text/html' | 'image/webp' | 'application/pdf' | 'text/csv';
}

/** A JSON answer: its schema, and when it comes. */
export interface JsonResponse {
  description: string;
  schema: z.ZodType;
}

export type ResponseSpec = JsonResponse | OtherResponse;

/**
 * One endpoint's contract: what it takes (query, JSON or multipart body, headers) and every answer it
 * gives on success. Refusals all share the error schema (common/contracts/shapes.ts apiErrorSchema).
 */
export interface Contract {
  method: HttpMethod;
  /** The full path, e.g. /api/user.php. */
  path: string;
  summary: string;
  description?: string;
  /**
   * Only signed-in members (otherwise 403 authentication_required), or only staff with this role (or `admin`): a
   * console session or a staff API token (otherwise 401 staff_authentication_required, 403 forbidden without the
   * role). Which sites they reach is the use case's to check.
   */
  auth?: 'member' | StaffAuth;
  /** The query string's fields: an object, or an object piped into a transform (the document shows the object). */
  query?: z.ZodObject | z.ZodPipe<z.ZodObject, z.ZodType>;
  body?: z.ZodType;
  /** A multipart/form-data body instead of JSON. */
  form?: z.ZodObject;
  /** Request headers the endpoint needs (e.g. Idempotency-Key). */
  headers?: Record<string, { description: string; required: boolean; schema?: z.ZodType }>;
  /** Success answers by status; a JSON answer may come with a non-JSON alternative (e.g. an image). */
  responses: Partial<Record<200 | 201 | 204 | 302, ResponseSpec | ResponseSpec[]>>;
}

/** A staff endpoint's auth: the role it needs (decision 059). */
export interface StaffAuth {
  staff: StaffRoleName;
}

export const staffAuth = (role: StaffRoleName): StaffAuth => ({ staff: role });

export const isStaffAuth = (auth: Contract['auth']): auth is StaffAuth => typeof auth === 'object';

export const isJsonResponse = (spec: ResponseSpec): spec is JsonResponse => 'schema' in spec;

/**
 * Keeps the literal types of an area's contracts while checking each against Contract. Named
 * (`{ like: {...}, unlike: {...} }`), so a route is declared from its contract (server/http/endpoint.ts);
 * a list is for areas whose routes are still registered by hand.
 */
export const contracts = <const T extends readonly Contract[] | Readonly<Record<string, Contract>>>(group: T): T => group;

/**
 * A request field the use case checks itself, with an error of its own and in its own order (a reset link before
 * the new password, the old password before the new one): the document describes it by `schema`, and the value
 * reaches the handler as it was sent, unchecked, so its type is unknown.
 */
export function checkedByUseCase<S extends z.ZodType>(schema: S): z.ZodType<unknown, z.input<S>> {
  return schema.catch((ctx) => ctx.input as z.output<S>) as unknown as z.ZodType<unknown, z.input<S>>;
}

export const IDEMPOTENCY_KEY = {
  'Idempotency-Key': { description: 'A key the client keeps for all retries of this request: a retry never charges or sends twice.', required: true, schema: idempotencyKeySchema },
} as const;
