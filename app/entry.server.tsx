import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router';
import { requestContext } from './context.ts';
import { provideTranslations } from './lib/translations.ts';
import { holdScripts, type HoldUntil } from './lib/hold-scripts.server.ts';
import { holdsScripts } from './lib/hydrate-on-interaction.ts';
import { PAGE_BOUNCE_PARAM } from '#common/constants.ts';
import type { RootData } from './root.tsx';

// The HTTP server sets this key on the load context; exporting it lets it use the very same object. It also gives
// the pages the translation tables they render from, in memory (the browser loads its language's file;
// app/lib/translations.ts), before the loaders run; the ssr bench's baseline provides them itself.
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
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const chunks: Buffer[] = [];
    // The whole document, then one answer with its length: no loader defers data (every page's data is in its
    // HTML), so streaming from the shell on would only split the page into more writes (the loader data's scripts
    // come in pieces after it). The scripts are held in the finished document (app/lib/hold-scripts.server.ts).
    const document = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timeoutId);
        timeoutId = undefined;
        const html = holdScripts(Buffer.concat(chunks).toString(), nonce, holdUntil(request, routerContext, responseStatusCode));
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    // React destroys its destination with the error should rendering fail while it writes.
    document.on('error', reject);

    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      onAllReady() {
        shellRendered = true;
        pipe(document);
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
 * Every page's scripts wait until it has been painted, so its first frame does not wait for them. A visitor's
 * landing page waits for the visitor to interact (app/lib/hydrate-on-interaction.ts), unless something on it must
 * run at once: the page-bounce beacon of a `?lb` visit. (The entry warning is rendered by the server.)
 */
function holdUntil(request: Request, context: EntryContext, status: number): HoldUntil {
  const { matches, loaderData } = context.staticHandlerContext;
  const root = loaderData.root as RootData | undefined;
  if (status !== 200 || !root) return 'first-paint';
  const runsAtLoad = new URL(request.url).searchParams.has(PAGE_BOUNCE_PARAM);
  return holdsScripts(matches.map((m) => context.routeModules[m.route.id]?.handle), { signedIn: Boolean(root.user), runsAtLoad }) ? 'interaction' : 'first-paint';
}
