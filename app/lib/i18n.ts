import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { countFormatter } from '#common/i18n-format.ts';
import type { Language } from '#common/languages.ts';

/** One i18next instance per render, made synchronously from the resources the server sent. */
export function createI18n(lang: Language, resources: Record<string, unknown>): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).use(countFormatter).init({
    lng: lang,
    resources: { [lang]: { translation: resources } },
    fallbackLng: false,
    interpolation: { escapeValue: false, alwaysFormat: true },
    initAsync: false,
    react: { useSuspense: false },
  });
  return instance;
}
