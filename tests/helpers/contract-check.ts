import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { z } from 'zod';
import { findContract, isJsonResponse, type ResponseSpec } from '../../common/contracts/index.ts';
import { apiErrorSchema } from '../../common/contracts/shapes.ts';

/** An answer of the JSON API outside its contract (common/contracts). */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

function decode(bytes: Buffer, encoding: string | null): string {
  if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
  if (encoding === 'deflate') return inflateSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

/**
 * What is wrong with an answer to METHOD path under its contract, or null when it keeps to it: a success
 * must be a status the contract names with a body one of that status's schemas accepts; a JSON refusal
 * must be the shared error shape. Paths outside /api are not part of the JSON API.
 */
export async function contractProblem(method: string, path: string, res: Response): Promise<string | null> {
  if (!path.startsWith('/api/') || method === 'HEAD' || method === 'OPTIONS') return null;
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const text = res.body ? decode(Buffer.from(await res.arrayBuffer()), res.headers.get('content-encoding')) : '';
  const where = `${method} ${path} answered ${res.status}`;

  if (res.status >= 400) {
    if (type !== 'application/json') return null;
    const parsed = apiErrorSchema.safeParse(safeJson(text));
    return parsed.success ? null : `${where} with an error body outside the Error schema:\n${z.prettifyError(parsed.error)}\n${text.slice(0, 500)}`;
  }

  const contract = findContract(method, path);
  if (!contract) return `${where}, but no contract in common/contracts describes ${method} ${path}`;
  const declared = contract.responses[res.status as keyof typeof contract.responses] as ResponseSpec | ResponseSpec[] | undefined;
  if (!declared) return `${where}, a status its contract does not name (${Object.keys(contract.responses).join(', ')})`;
  const specs = Array.isArray(declared) ? declared : [declared];

  if (type === 'application/json') {
    const json = safeJson(text);
    const schemas = specs.filter(isJsonResponse);
    if (!schemas.length) return `${where} with JSON, but its contract names no JSON answer for ${res.status}`;
    const failures: string[] = [];
    for (const spec of schemas) {
      const parsed = spec.schema.safeParse(json);
      if (parsed.success) return null;
      failures.push(`- as "${spec.description}":\n${z.prettifyError(parsed.error)}`);
    }
    return `${where} outside its contract:\n${failures.join('\n')}\nbody: ${text.slice(0, 1500)}`;
  }
  const other = specs.filter((s) => !isJsonResponse(s));
  const fits = other.some((s) => ('contentType' in s && s.contentType ? s.contentType === type : text === ''));
  return fits ? null : `${where} with ${type || 'an empty body'}, which its contract does not name for ${res.status}`;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface Fetcher {
  fetch: (request: Request, ...rest: any[]) => Response | Promise<Response>;
}

/**
 * From now on every answer of this app's JSON API is checked against its contract; one outside it
 * fails the request (and so the test) with a ContractViolation saying what does not fit.
 */
export function checkContracts<A extends Fetcher>(app: A): A {
  const fetch = app.fetch;
  app.fetch = async (request: Request, ...rest: any[]) => {
    const res = await fetch(request, ...rest);
    if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) return res;
    const problem = await contractProblem(request.method, new URL(request.url).pathname, res.clone());
    if (problem) throw new ContractViolation(problem);
    return res;
  };
  return app;
}
