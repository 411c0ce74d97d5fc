import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { isStaffAuth, type Contract } from '#common/contracts/contract.ts';
import { requireMember, type StaffActor } from '../actor.ts';
import type { AppEnv } from './context.ts';
import { jsonBody, parse, requireStaffRole, type C } from './helpers.ts';

/** Where app.ts mounts the API's routes; a contract names the full path. */
const API_PREFIX = '/api';

type Part = 'query' | 'body' | 'form';
type SchemaOf<K, P extends Part> = K extends { [key in P]: infer S extends z.ZodType } ? S : undefined;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: the parts of the request its contract names, parsed by the contract's schemas. */
export interface EndpointInput<K extends Contract, B = undefined> {
  query: Parsed<SchemaOf<K, 'query'>>;
  /** The JSON body; with a variant's `body`, that alternative of the contract's. */
  body: Parsed<B extends z.ZodType ? B : SchemaOf<K, 'body'>>;
  /** The multipart form's fields. */
  form: Parsed<SchemaOf<K, 'form'>>;
  /** The staff member acting, on a staff endpoint (with the contract's role somewhere; the use case checks the site). */
  staff: K extends { auth: { staff: string } } ? StaffActor : undefined;
}

export interface EndpointOptions<K extends Contract, B> {
  /**
   * Middleware run after the auth check and before the input is read, in this order: rate limits (a flood is
   * counted before its bodies are parsed), a webhook's shared secret, an upload's body limit.
   */
  before?: MiddlewareHandler<AppEnv>[];
  /**
   * One path that serves two operations told apart by the query (POST /api/user.php: a log-in, or with ?push=1 the
   * push subscription). A declaration with `when` serves the requests it accepts and passes the others on to the next
   * declaration of the same contract; `auth` and `body` are then this variant's own, `body` one of the alternatives
   * of the contract's body.
   */
  when?: (query: Parsed<SchemaOf<K, 'query'>>) => boolean;
  auth?: 'member';
  body?: B;
}

type EndpointHandler<K extends Contract, B> = (c: C, input: EndpointInput<K, B>) => Response | Promise<Response>;
/** The same, as the implementation sees any contract's. */
type AnyHandler = (c: C, input: { query: unknown; body: unknown; form: unknown; staff: StaffActor | undefined }) => Response | Promise<Response>;
type AnyOptions = { before?: MiddlewareHandler<AppEnv>[]; when?: (query: unknown) => boolean; auth?: 'member'; body?: z.ZodType };

/**
 * The API's routes, each registered from its contract (common/contracts): method and path come from the contract;
 * a visitor is refused a member endpoint (403 authentication_required), and a staff endpoint refuses anyone without
 * a console session or staff API token (401 staff_authentication_required) or without its role (403), before anything
 * else; then the `before` middleware runs; then the query, the JSON body or the
 * multipart form is parsed by the contract's schemas (bad input: 400 with field errors, as `parse` gives them) and
 * the handler receives it typed. Mounted at /api by app.ts.
 */
export class ApiRoutes extends Hono<AppEnv> {
  endpoint<const K extends Contract, B extends z.ZodType | undefined = undefined>(contract: K, handler: EndpointHandler<K, B>): this;
  endpoint<const K extends Contract, B extends z.ZodType | undefined = undefined>(contract: K, options: EndpointOptions<K, B>, handler: EndpointHandler<K, B>): this;
  endpoint(contract: Contract, ...args: [AnyHandler] | [AnyOptions, AnyHandler]): this {
    const [options, handler]: [AnyOptions, AnyHandler] = args.length === 1 ? [{}, args[0]] : args;
    if (!contract.path.startsWith(`${API_PREFIX}/`)) throw new Error(`${contract.method} ${contract.path}: the API's paths start with ${API_PREFIX}/`);
    if (options.body && !(contract.body instanceof z.ZodUnion && contract.body.options.includes(options.body))) {
      throw new Error(`${contract.method} ${contract.path}: a variant's body must be one of the alternatives of the contract's body`);
    }
    const body = options.body ?? contract.body;
    const { when } = options;

    const gate: MiddlewareHandler<AppEnv> = async (c, next) => {
      if (contract.auth === 'member' || options.auth === 'member') requireMember(c.get('ctx').actor);
      if (isStaffAuth(contract.auth)) c.set('staff', await requireStaffRole(c, contract.auth.staff));
      await next();
    };
    const run: MiddlewareHandler<AppEnv> = async (c) => handler(c, {
      query: contract.query ? parse(contract.query, c.req.query()) : undefined,
      body: body ? parse(body, await jsonBody(c)) : undefined,
      form: contract.form ? parse(contract.form, await formFields(c)) : undefined,
      staff: isStaffAuth(contract.auth) ? c.get('staff') : undefined,
    });

    // A variant that does not apply passes each of its steps on, down to the next declaration of the path.
    const applies = (c: C) => {
      const query = contract.query ? contract.query.safeParse(c.req.query()) : { success: true as const, data: undefined };
      return query.success && when!(query.data);
    };
    const chain = [gate, ...(options.before ?? []), run]
      .map((step): MiddlewareHandler<AppEnv> => (when ? (c, next) => (applies(c) ? step(c, next) : next()) : step));
    this.on(contract.method.toUpperCase(), contract.path.slice(API_PREFIX.length), ...(chain as [MiddlewareHandler<AppEnv>]));
    return this;
  }
}

/** A multipart body's fields. A body that is not one, or cannot be read, has none: the form's schema names what is missing. */
async function formFields(c: C): Promise<Record<string, string | File>> {
  if (!(c.req.header('content-type') ?? '').includes('multipart/form-data')) return {};
  return c.req.parseBody().catch(() => ({}));
}
