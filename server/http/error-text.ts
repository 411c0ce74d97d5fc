import { MIN_AGE } from '#common/constants.ts';
import type { Language } from '#common/languages.ts';
import type { Translator } from '../i18n/i18n.ts';
import type { AppError } from '../infra/errors.ts';

/** A broken rule in the member's language: its message, and one message per field it names. */
export function appErrorText(translator: Translator, lang: Language, error: AppError): { message: string; details: Record<string, string> } {
  const params = { min_age: MIN_AGE, ...error.params };
  return {
    message: translator.t(lang, `errors.${error.code}`, params),
    details: Object.fromEntries(Object.entries(error.details).map(([k, v]) => [k, translator.t(lang, v, params)])),
  };
}
