import type { MetaDescriptor } from 'react-router';
import type { RootData } from '../root.tsx';
import { translationTable } from './translations.ts';

interface PageMeta {
  /** The page's own title; the site's name follows it. Without one: the site's index title. */
  title?: string;
  /** Or the i18n key of the title, in the page's language. */
  titleKey?: string;
  /** Without one: the site's description. */
  description?: string;
  /** Pages that only make sense to the visitor at hand (language choice, payment states). */
  noindex?: boolean;
}

/**
 * Title, description and their Open Graph twins for a route's `meta`. A route's meta replaces its
 * parents', so every route that names its title goes through this to keep the rest; the canonical URL and
 * the site-wide Open Graph tags are in the root layout.
 */
export function pageMeta(matches: readonly ({ id: string; loaderData?: unknown } | undefined)[], page: PageMeta = {}): MetaDescriptor[] {
  const root = matches.find((m) => m?.id === 'root')?.loaderData as RootData | undefined;
  const site = root?.settings.name || 'Amora';
  const own = page.title ?? (page.titleKey && root ? text(translationTable(root.lang), page.titleKey) : undefined);
  const title = own ? `${own} · ${site}` : root?.settings.index_title || site;
  const description = page.description ?? root?.settings.description ?? '';
  return [
    { title },
    { property: 'og:title', content: title },
    ...(description ? [{ name: 'description', content: description }, { property: 'og:description', content: description }] : []),
    { name: 'twitter:card', content: 'summary' },
    ...(page.noindex ? [{ name: 'robots', content: 'noindex' }] : []),
  ];
}

/** A translation from the page language's table (meta functions run outside the i18n provider). */
function text(resources: unknown, key: string): string | undefined {
  let node: unknown = resources;
  for (const part of key.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}
