/** The pure part of `npm run bench -- ssr`: a page's route matches and loader data, as React Router would have them. */
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';

/** A page the baseline renders: its path and the loader data the real server produced for it, by route id. */
export interface Page { path: string; loaderData: Record<string, unknown> }

type BuildRoutes = ServerBuild['routes'];

/** The build's flat route list as a tree (ids, paths and index flags only: enough to match a URL). */
export function routeTree(routes: BuildRoutes, parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((r) => r && r.parentId === parentId)
    .map((r) => (r!.index
      ? { id: r!.id, index: true, path: r!.path, caseSensitive: r!.caseSensitive }
      : { id: r!.id, path: r!.path, caseSensitive: r!.caseSensitive, children: routeTree(routes, r!.id) }));
}

/** The matches from the root to the page's route, with the URL's params. */
export function pageMatches(routes: BuildRoutes, pathname: string) {
  const matches = matchRoutes(routeTree(routes), pathname);
  if (!matches) throw new Error(`no route matches ${pathname}`);
  return matches;
}

/**
 * The loader data of a decoded single-fetch answer (`GET /page.data`): `{ [routeId]: { data } }`. A route's error or
 * a redirect means the page would not render as measured, so it stops the bench.
 */
export function loaderDataOf(decoded: unknown, path: string): Record<string, unknown> {
  if (!decoded || typeof decoded !== 'object') throw new Error(`${path}: no loader data`);
  const loaderData: Record<string, unknown> = {};
  for (const [routeId, result] of Object.entries(decoded as Record<string, { data?: unknown; error?: unknown }>)) {
    if (!result || typeof result !== 'object' || !('data' in result)) throw new Error(`${path}: route ${routeId} answered no data (${JSON.stringify(result)?.slice(0, 200)})`);
    loaderData[routeId] = result.data;
  }
  if (Object.getOwnPropertySymbols(decoded).length) throw new Error(`${path}: the server redirected`);
  return loaderData;
}
