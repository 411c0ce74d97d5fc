import { Hono } from 'hono';
import { openApiDocument } from '#common/contracts/openapi.ts';
import type { AppEnv } from './context.ts';

let document: string | undefined;

/** GET /api/openapi.json: the OpenAPI 3.1 description of the JSON API, generated once per process from the contracts. */
export const openApiRoutes = new Hono<AppEnv>()
  .get('/openapi.json', (c) => {
    document ??= JSON.stringify(openApiDocument());
    return c.body(document, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });
