import type { z } from 'zod';
import { idempotencyKeySchema } from '../schemas.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** An answer that is not JSON: a redirect, an HTML page, an image or an empty body. */
export interface OtherResponse {
  description: string;
  /** The media type of the body; absent for an empty body (204, 302). */
  contentType?: 'text/html' | 'image/webp' | 'application/pdf';
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
  /** Only signed-in members (otherwise 403 authentication_required). */
  auth?: 'member' | 'operator';
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A multipart/form-data body instead of JSON. */
  form?: z.ZodObject;
  /** Request headers the endpoint needs (e.g. Idempotency-Key). */
  headers?: Record<string, { description: string; required: boolean; schema?: z.ZodType }>;
  /** Success answers by status; a JSON answer may come with a non-JSON alternative (e.g. an image). */
  responses: Partial<Record<200 | 201 | 204 | 302, ResponseSpec | ResponseSpec[]>>;
}

export const isJsonResponse = (spec: ResponseSpec): spec is JsonResponse => 'schema' in spec;

/** Keeps the literal types of a list of contracts while checking each against Contract. */
export const contracts = <const T extends readonly Contract[]>(list: T): T => list;

export const IDEMPOTENCY_KEY = {
  'Idempotency-Key': { description: 'A key the client keeps for all retries of this request: a retry never charges or sends twice.', required: true, schema: idempotencyKeySchema },
} as const;
