import type { RouteConfigEntry } from '@react-router/dev/routes';
import {
  UNSAFE_withComponentProps, UNSAFE_withErrorBoundaryProps, UNSAFE_withHydrateFallbackProps,
  type ServerBuild, type UNSAFE_AssetsManifest as AssetsManifest,
} from 'react-router';
import routeConfig from '../../app/routes.ts';
import reactRouterConfig from '../../react-router.config.ts';

/**
 * The pages as the server build has them, assembled in-process from app/routes.ts and the route modules, so
 * tests can send requests through createApp and React Router to every page without `npm run build` (which the
 * browser tests use). What the build's plugin adds is done here too: components receive their loader data as
 * props. The browser manifest names no real files: these pages are read, never run in a browser.
 */
export interface PageRoute {
  id: string;
  /** The full path pattern (`members/:id/chat`); '' for the index. */
  path: string;
  /** The route exports an action (a form posts to it). */
  hasAction: boolean;
}

type RouteModule = Record<string, unknown> & { default?: unknown; ErrorBoundary?: unknown; HydrateFallback?: unknown };
type Wrappable = Parameters<typeof UNSAFE_withComponentProps>[0];

/** React Router's default id of a route without one: its file without the extension. */
const routeId = (entry: Pick<RouteConfigEntry, 'id' | 'file'>) => entry.id ?? entry.file.replace(/\.[jt]sx?$/, '');

async function loadModule(file: string): Promise<RouteModule> {
  const module = (await import(/* @vite-ignore */ new URL(`../../app/${file}`, import.meta.url).pathname)) as RouteModule;
  return {
    ...module,
    ...(module.default ? { default: UNSAFE_withComponentProps(module.default as Wrappable) } : {}),
    ...(module.ErrorBoundary ? { ErrorBoundary: UNSAFE_withErrorBoundaryProps(module.ErrorBoundary as Parameters<typeof UNSAFE_withErrorBoundaryProps>[0]) } : {}),
    ...(module.HydrateFallback ? { HydrateFallback: UNSAFE_withHydrateFallbackProps(module.HydrateFallback as Parameters<typeof UNSAFE_withHydrateFallbackProps>[0]) } : {}),
  };
}

async function assemble(): Promise<{ build: ServerBuild; routes: PageRoute[] }> {
  const routes: ServerBuild['routes'] = {};
  const manifest: AssetsManifest['routes'] = {};
  const pages: PageRoute[] = [];
  const modules = new Map<string, Promise<RouteModule>>();
  const add = async (entry: RouteConfigEntry, parentId: string | undefined, parentPath: string) => {
    const id = routeId(entry);
    if (!modules.has(entry.file)) modules.set(entry.file, loadModule(entry.file));
    const module = await modules.get(entry.file)!;
    const fullPath = [parentPath, entry.path ?? ''].filter(Boolean).join('/');
    const shape = { id, parentId, path: entry.path, index: entry.index, caseSensitive: entry.caseSensitive };
    routes[id] = { ...shape, module: module as unknown as NonNullable<ServerBuild['routes'][string]>['module'] };
    manifest[id] = {
      ...shape, module: `/assets/${id}.js`, imports: [], css: [],
      hasAction: 'action' in module, hasLoader: 'loader' in module, hasClientAction: 'clientAction' in module,
      hasClientLoader: 'clientLoader' in module, hasClientMiddleware: 'clientMiddleware' in module, hasErrorBoundary: 'ErrorBoundary' in module,
      clientActionModule: undefined, clientLoaderModule: undefined, clientMiddlewareModule: undefined, hydrateFallbackModule: undefined,
    };
    // Layouts have no path of their own; the pages are their descendants with a path or the index.
    if (entry.path !== undefined || entry.index) pages.push({ id, path: fullPath, hasAction: 'action' in module });
    for (const child of entry.children ?? []) await add(child, id, fullPath);
  };
  await add({ id: 'root', file: 'root.tsx', path: '', children: routeConfig }, undefined, '');
  pages.splice(pages.findIndex((p) => p.id === 'root'), 1);
  const build: ServerBuild = {
    entry: { module: (await import('../../app/entry.server.tsx')) as unknown as ServerBuild['entry']['module'] },
    routes,
    assets: { entry: { module: '/assets/entry.client.js', imports: [] }, routes: manifest, url: '/assets/manifest.js', version: 'test' },
    basename: '/',
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    future: { ...reactRouterConfig.future } as ServerBuild['future'],
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
    allowedActionOrigins: false,
  };
  return { build, routes: pages };
}

let assembled: ReturnType<typeof assemble> | undefined;

/** The pages' server build and the list of page routes (each test file assembles them once). */
export function pageBuild(): ReturnType<typeof assemble> {
  return (assembled ??= assemble());
}
