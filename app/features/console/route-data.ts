import { useRouteLoaderData } from 'react-router';
import type { ConsoleLayoutData } from '../../layouts/console.tsx';

/** The console layout's data (the signed-in staff member) in its pages. */
export function useRouteData(): ConsoleLayoutData {
  return useRouteLoaderData('console-layout') as ConsoleLayoutData;
}
