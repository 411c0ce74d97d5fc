import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from 'react-dom/server';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { requestContext } from './context.ts';
import { provideTranslations } from './lib/translations.ts';
import { holdScripts } from './lib/hold-scripts.server.ts';
import { holdsScripts } from './lib/hydrate-on-interaction.ts';
import { PAGE_BOUNCE_PARAM } from '#common/constants.ts';
import type { RootData } from './root.tsx';

// The HTTP server sets this key on the load context; exporting it lets it use the very same object.
// The ssr bench's baseline renders pages without the server, and provides the translation tables itself.
export { requestContext, provideTranslations };

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const ctx = loadContext.get(requestContext);
  const nonce = ctx.nonce;
  // Pages render from the tables in memory (the browser loads its language's file; app/lib/translations.ts).
  provideTranslations(ctx.translator.resources);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      [readyOption]() {
        shellRendered = true;
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        pipe(body);
        const html = holdsPageScripts(request, routerContext, responseStatusCode) ? body.pipe(holdScripts(nonce)) : body;
        resolve(new Response(createReadableStreamFromReadable(html), { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
  });
}

/**
 * A visitor's landing page runs its code once they interact (app/lib/hydrate-on-interaction.ts), unless something
 * on it must run at once: the page-bounce beacon of a `?lb` visit. (The entry warning is rendered by the server.)
 */
function holdsPageScripts(request: Request, context: EntryContext, status: number): boolean {
  const { matches, loaderData } = context.staticHandlerContext;
  if (status !== 200) return false;
  const root = loaderData.root as RootData | undefined;
  if (!root) return false;
  const runsAtLoad = new URL(request.url).searchParams.has(PAGE_BOUNCE_PARAM);
  return holdsScripts(matches.map((m) => context.routeModules[m.route.id]?.handle), { signedIn: Boolean(root.user), runsAtLoad });
}
