import { DEFAULT_LANGUAGE, isLanguage, type Language } from '#common/languages.ts';
import { domainLanguage, type Site } from '../settings/settings.service.ts';

/**
 * The language of a request: the locale cookie, else the site's domain_language, else the browser's
 * preference, else English. Returns whether the cookie should now be set (the domain_language rule).
 */
export function resolveLanguage(input: { cookie: string | undefined; site: Site; acceptLanguage: string | undefined }): {
  lang: Language;
  setCookie: boolean;
} {
  if (isLanguage(input.cookie)) return { lang: input.cookie, setCookie: false };
  const fromDomain = domainLanguage(input.site);
  if (fromDomain) return { lang: fromDomain, setCookie: true };
  for (const part of (input.acceptLanguage ?? '').split(',')) {
    const code = part.trim().slice(0, 2).toLowerCase();
    if (code === 'no' || code === 'nn') return { lang: 'nb', setCookie: false };
    if (isLanguage(code)) return { lang: code, setCookie: false };
  }
  return { lang: DEFAULT_LANGUAGE, setCookie: false };
}
