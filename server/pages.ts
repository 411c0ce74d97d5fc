import { createRequestHandler, RouterContextProvider, type ServerBuild, type RouterContext } from 'react-router';
import type { RequestContext } from './http/context.ts';

/** The server build exports its own context key (see app/entry.server.tsx), so both sides share one object. */
type AmoraBuild = ServerBuild & { entry: { module: { requestContext: RouterContext<RequestContext> } } };

export function pagesHandler(getBuild: () => Promise<ServerBuild>, mode: string) {
  return async (request: Request, ctx: RequestContext): Promise<Response> => {
    const build = (await getBuild()) as AmoraBuild;
    const handler = createRequestHandler(build, mode);
    const context = new RouterContextProvider();
    context.set(build.entry.module.requestContext, ctx);
    return handler(request, context);
  };
}

/** Without a page build the API still runs; every page says plainly why it is missing. */
export async function pagesUnavailable(): Promise<Response> {
  return new Response('Pages are not built on this server (run npm run build); the API at /api/*.php works.\n', {
    status: 503,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': '60', 'Cache-Control': 'no-store' },
  });
}
