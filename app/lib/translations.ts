import type { Language } from '#common/languages.ts';
import { translationsUrl } from '#common/translations.ts';

export type TranslationTable = Record<string, unknown>;

/**
 * The translation tables pages render with (docs/decisions/024). The server provides all of them from memory
 * (server/pages.ts, through the page build); the browser loads its page's language from the server's cached file
 * before it hydrates (app/entry.client.tsx), so loader data never carries a table.
 */
const tables: Partial<Record<Language, TranslationTable>> = {};

let provided: Partial<Record<Language, TranslationTable>> | undefined;
export function provideTranslations(all: Partial<Record<Language, TranslationTable>>): void {
  // The server gives the same tables with every page request: taken once.
  if (all === provided) return;
  provided = all;
  Object.assign(tables, all);
}

/**
 * The language the browser's page hydrated in (app/entry.client.tsx): an error page whose root data is gone (a
 * navigation's data request refused) keeps speaking it. Never set on the server, where it would be any request's.
 */
let hydratedIn: Language | undefined;
export function setPageLanguage(lang: Language): void {
  hydratedIn = lang;
}
export function pageLanguage(): Language | undefined {
  return hydratedIn;
}

export function translationTable(lang: Language): TranslationTable | undefined {
  return tables[lang];
}

/** Loads a language's table once (the document's preload has usually fetched it already); a failed load may be retried. */
const loading = new Map<string, Promise<TranslationTable>>();
export function loadTranslations(lang: Language, version: string): Promise<TranslationTable> {
  const have = tables[lang];
  if (have) return Promise.resolve(have);
  const url = translationsUrl(lang, version);
  let promise = loading.get(url);
  if (!promise) {
    promise = fetch(url).then(async (res) => {
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      const table = (await res.json()) as TranslationTable;
      tables[lang] = table;
      return table;
    });
    promise.catch(() => loading.delete(url));
    loading.set(url, promise);
  }
  return promise;
}
