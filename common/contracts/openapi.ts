import { z } from 'zod';
import { CONTRACT_GROUPS, isJsonResponse, type Contract, type ResponseSpec } from './index.ts';
import { apiComponents, apiErrorSchema } from './shapes.ts';
import { isStaffAuth } from './contract.ts';
import { STAFF_COOKIE, STAFF_TOKEN_PREFIX } from '../staff.ts';

type JsonSchema = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

/**
 * The OpenAPI 3.1 description of the JSON API, generated from the contracts (common/contracts).
 * Requests are described as the client sends them (zod's input side), answers as the server sends them
 * (output side). Schemas registered in apiComponents become named components, referenced from every operation.
 */
export function openApiDocument(options: { title?: string; version?: string } = {}): JsonSchema {
  const components: Record<string, JsonSchema> = {};

  /** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), its named parts moved to components. */
  const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, metadata: apiComponents, unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = json;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) components[name] ??= relink(def);
    // A registered schema at the top is itself a component.
    const own = apiComponents.get(schema)?.id;
    if (own) {
      const { id: _id, ...body } = rest;
      components[own] ??= relink(body);
      return { $ref: COMPONENT_REF + own };
    }
    return relink(rest);
  };

  const errorRef = toSchema(apiErrorSchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [tag, contracts] of Object.entries(CONTRACT_GROUPS)) {
    for (const contract of Object.values(contracts)) {
      (paths[contract.path] ??= {})[contract.method] = operation(contract, tag, toSchema, errorRef);
    }
  }

  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Amora JSON API',
      version: options.version ?? '1',
      description: 'Every endpoint lives under /api. The session is the auth.session cookie; refusals answer the Error schema, with `code` stable for clients.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: Object.keys(CONTRACT_GROUPS).map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'auth.session' },
        staffSession: { type: 'apiKey', in: 'cookie', name: STAFF_COOKIE, description: 'A console session (/console/login: password, then a TOTP or recovery code).' },
        staffToken: {
          type: 'http', scheme: 'bearer',
          description: `A staff API token (${STAFF_TOKEN_PREFIX}…), made on the console's account page; it acts with the roles given to it as scopes, within its owner's roles and sites.`,
        },
      },
    },
  };
}

function operation(contract: Contract, tag: string, toSchema: (s: z.ZodType, io: 'input' | 'output') => JsonSchema, errorRef: JsonSchema) {
  const parameters: unknown[] = [];
  if (contract.query) {
    const query = toSchema(contract.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      // A parameter with a default (or a fallback) may be left out.
      parameters.push({ name, in: 'query', required: (query.required?.includes(name) ?? false) && !('default' in schema), schema });
    }
  }
  for (const [name, header] of Object.entries(contract.headers ?? {})) {
    parameters.push({ name, in: 'header', required: header.required, description: header.description, schema: header.schema ? toSchema(header.schema, 'input') : { type: 'string' } });
  }

  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(contract.responses) as [string, ResponseSpec | ResponseSpec[]][]) {
    responses[status] = response(Array.isArray(spec) ? spec : [spec], toSchema);
  }
  responses.default = { description: 'Refused: the error code and a message in the member\'s language.', content: { 'application/json': { schema: errorRef } } };

  return {
    tags: [tag],
    summary: contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    operationId: `${contract.method}${contract.path.replace(/^\/api\//, '').replace(/\.(php|json)$/, '').replace(/(^|[-_/.])(\w)/g, (_m, _s, ch: string) => ch.toUpperCase())}`,
    ...(contract.auth ? { security: contract.auth === 'member' ? [{ session: [] }] : [{ staffSession: [] }, { staffToken: [contract.auth.staff] }] } : {}),
    ...(isStaffAuth(contract.auth) ? { 'x-staff-role': contract.auth.staff } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(contract.body ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(contract.body, 'input') } } } } : {}),
    ...(contract.form ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: toSchema(contract.form, 'input') } } } } : {}),
    responses,
  };
}

function response(specs: ResponseSpec[], toSchema: (s: z.ZodType, io: 'input' | 'output') => JsonSchema) {
  const json = specs.filter(isJsonResponse);
  const content: Record<string, unknown> = {};
  if (json.length === 1) content['application/json'] = { schema: toSchema(json[0].schema, 'output') };
  if (json.length > 1) content['application/json'] = { schema: { anyOf: json.map((s) => ({ ...toSchema(s.schema, 'output'), description: s.description })) } };
  for (const spec of specs) if (!isJsonResponse(spec) && spec.contentType) content[spec.contentType] = { schema: spec.contentType === 'text/html' || spec.contentType === 'text/csv' ? { type: 'string' } : { type: 'string', contentMediaType: spec.contentType } };
  return { description: specs.map((s) => s.description).join(' '), ...(Object.keys(content).length ? { content } : {}) };
}

/** Points the generator's local references (#/$defs/X) at the document's components. */
function relink<T>(value: T): T {
  if (Array.isArray(value)) return value.map(relink) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, COMPONENT_REF) : relink(v)])) as T;
  }
  return value;
}
