import { useRouteLoaderData } from 'react-router';
import type { RootData } from '../root.tsx';

/**
 * The root route's loader data. Here rather than in root.tsx, which no module imports (only its types): the root
 * route's chunk stays the one that carries the app's stylesheet (vite.config.ts, docs/decisions/045).
 */
export function useRootData(): RootData {
  return useRouteLoaderData('root') as RootData;
}
