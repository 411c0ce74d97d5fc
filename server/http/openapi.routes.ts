import { openApiDocument } from '#common/contracts/openapi.ts';
import { settingsContracts } from '#common/contracts/settings.ts';
import { ApiRoutes } from './endpoint.ts';

let document: string | undefined;

/** GET /api/openapi.json: the OpenAPI 3.1 description of the JSON API, generated once per process from the contracts. */
export const openApiRoutes = new ApiRoutes()
  .endpoint(settingsContracts.openApi, (c) => {
    document ??= JSON.stringify(openApiDocument());
    return c.body(document, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });
