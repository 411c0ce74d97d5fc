// The baseline of `npm run bench -- ssr`, in a worker thread so that the load generator does not share its event
// loop: a bare node:http server that answers GET /<page> with renderToString of the page's component tree from the
// production build (root layout, default layout, page boundary, route component), fed with loader data the real
// server produced once. No loaders, no request handling, no data serialisation, no streaming: React Router only
// supplies the static router and framework context that Link, Meta, Links, Scripts and the hooks read.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ServerRouter, type EntryContext, type ServerBuild } from 'react-router';
import { loadLocales } from '../server/i18n/i18n.ts';
import { pageMatches, type Page } from './ssr-pages.ts';

const { buildPath, pages, nonce } = workerData as { buildPath: string; pages: Record<string, Page>; nonce: string };
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
// Pages render from the translation tables in memory, as on the server (the root's loader data no longer has them).
(build.entry.module as unknown as { provideTranslations(all: ReturnType<typeof loadLocales>): void }).provideTranslations(loadLocales());

const routeModules = Object.fromEntries(Object.entries(build.routes).map(([id, r]) => [id, r!.module])) as EntryContext['routeModules'];

function render(page: Page): string {
  const url = new URL(page.path, 'http://localhost');
  const context = {
    manifest: build.assets,
    routeModules,
    staticHandlerContext: {
      basename: '/', location: { pathname: url.pathname, search: '', hash: '', state: null, key: 'default' },
      matches: pageMatches(build.routes, url.pathname), loaderData: page.loaderData, actionData: null, errors: null,
      statusCode: 200, loaderHeaders: {}, actionHeaders: {},
    },
    future: build.future, ssr: true, isSpaMode: false, routeDiscovery: build.routeDiscovery,
    // The small client context the document names (no loader data in it; that would be the stream).
    serverHandoffString: JSON.stringify({ basename: '/', future: build.future, ssr: true, isSpaMode: false, routeDiscovery: build.routeDiscovery }),
  } as unknown as EntryContext;
  return '<!DOCTYPE html>' + renderToString(createElement(ServerRouter, { context, url, nonce }));
}

const server = createServer((req, res) => {
  const page = pages[req.url ?? ''];
  if (!page) {
    res.writeHead(404).end();
    return;
  }
  const html = render(page);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  res.end(html);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
parentPort!.postMessage({ port: (server.address() as AddressInfo).port });
parentPort!.on('message', (message) => {
  if (message === 'close') server.close(() => process.exit(0));
});
