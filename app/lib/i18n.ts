import { createContext, createElement, useContext, type ReactNode } from 'react';
import { formatCount, formatUtcDateTime } from '#common/i18n-format.ts';
import type { Language } from '#common/languages.ts';

/**
 * The pages' translations: `t(key, options)` over one language's table, the way the server's translator
 * reads the same files (nested keys, `{{name}}` placeholders, plural forms `key_one`/`key_other`/… chosen by
 * the language's plural rules, counts grouped the reader's way). Small on purpose: it is in every page's
 * JavaScript. `app/lib/i18n.test.ts` checks every key of every language against the server's translator.
 */
export type TOptions = { count?: number; defaultValue?: string } & Record<string, unknown>;
export type TFunction = (key: string, options?: TOptions) => string;

export interface I18n {
  language: Language;
  t: TFunction;
}

type Table = Record<string, unknown>;

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

/** The text at a dotted key of a translation table, if there is one. */
export function textAt(table: Table, key: string): string | undefined {
  let node: unknown = table;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Table)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function interpolate(text: string, lang: Language, options: TOptions): string {
  // Values are inserted as they are (React escapes them) and never read again for placeholders; a
  // placeholder without a value stays as it is written, one given as undefined or null is left out.
  return text.replace(PLACEHOLDER, (whole, inner: string) => {
    // `{{name, format}}`: the server translator's formats; `datetime` is the only one the texts use.
    const [name, format] = inner.split(',').map((part) => part.trim());
    if (!Object.hasOwn(options, name)) return whole;
    const value = options[name];
    if (value === undefined || value === null) return '';
    if (format === 'datetime' && typeof value === 'string') return formatUtcDateTime(value, lang);
    if (name === 'count' && typeof value === 'number') return formatCount(value, lang);
    return String(value);
  });
}

export function createI18n(lang: Language, table: Table): I18n {
  const plurals = new Intl.PluralRules(lang);
  const t: TFunction = (key, options) => {
    const count = options?.count;
    const text = (typeof count === 'number' ? textAt(table, `${key}_${plurals.select(count)}`) : undefined)
      ?? textAt(table, key) ?? options?.defaultValue ?? key;
    return options ? interpolate(text, lang, options) : text;
  };
  return { language: lang, t };
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: I18n; children?: ReactNode }) {
  return createElement(I18nContext.Provider, { value: i18n }, children);
}

const NO_TABLE = createI18n('en', {});

/** The page's language and `t`; outside a provider (never on a page) keys come back as they are. */
export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext) ?? NO_TABLE;
  return { t: i18n.t, i18n };
}
